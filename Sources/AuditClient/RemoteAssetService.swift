import AsyncHTTPClient
import AuditAPI
import Foundation
import InventoryCore
import NIOCore

/// Assets over the API (`/api/v2/assets`).
public struct RemoteAssetService: AssetService {
    let client: APIClient

    public init(client: APIClient) { self.client = client }

    public func list(_ filter: AssetFilter, query: ListQuery) async throws -> Page<Asset> {
        var items = APIClient.listItems(query)
        items["status"] = filter.status?.rawValue
        items["country"] = filter.country
        items["customer_id"] = filter.customerId.map(String.init)
        items["not_audited_since"] = filter.notAuditedSince.map(ISOTime.string)
        return try await client.send(.GET, Routes.assets, query: items, as: ListResponse<Asset>.self).page
    }

    public func get(id: Int64) async throws -> Asset {
        try await client.send(.GET, Routes.path(Routes.asset, ["id": String(id)]))
    }

    public func find(identifier: String) async throws -> Asset? {
        try await client.send(.GET, Routes.assetFind, query: ["identifier": identifier], as: Asset?.self)
    }

    public func create(_ input: AssetInput) async throws -> Asset {
        try await client.send(.POST, Routes.assets, body: input)
    }

    public func update(id: Int64, _ input: AssetInput) async throws -> Asset {
        try await client.send(.PUT, Routes.path(Routes.asset, ["id": String(id)]), body: input)
    }

    public func delete(id: Int64, mode: DeleteMode) async throws -> Asset? {
        try await client.send(
            .DELETE, Routes.path(Routes.asset, ["id": String(id)]), query: ["mode": mode.rawValue],
            as: DeleteAssetResponse.self
        ).asset
    }

    public func transfer(id: Int64, _ request: TransferRequest) async throws -> Asset {
        try await client.send(.POST, Routes.path(Routes.assetTransfer, ["id": String(id)]), body: request)
    }

    public func history(assetID: Int64, query: ListQuery) async throws -> Page<AssetHistoryEntry> {
        try await client.send(
            .GET, Routes.path(Routes.assetHistory, ["id": String(assetID)]), query: APIClient.listItems(query),
            as: ListResponse<AssetHistoryEntry>.self
        ).page
    }

    /// Sends the rows as the JSON body of one request. Rows the reader already found bad fail
    /// here, before anything is sent.
    public func importAssets(
        streaming chunks: AsyncThrowingStream<[ImportRow], any Error>,
        progress: @escaping @Sendable (Int) -> Void
    ) async throws -> Int {
        var rows: [ImportRow] = []
        var problems = ValidationError()
        for try await chunk in chunks {
            for row in chunk {
                for problem in row.problems { problems.add("line \(row.line)", problem) }
                rows.append(row)
            }
        }
        guard problems.isEmpty else { throw InventoryError.invalid(problems) }
        progress(0)
        let count = try await client.send(.POST, Routes.assetImport, body: ImportRequest(rows: rows), as: ImportResponse.self).imported
        progress(count)
        return count
    }

    /// Streams the CSV as it is (`text/csv`): the server reads it, so every line keeps its
    /// number, and the file sits whole in memory on neither side. `progress` hears only the
    /// final count, as the server answers once, at the end.
    public func importAssets(
        csv blocks: AsyncThrowingStream<[UInt8], any Error>,
        progress: @escaping @Sendable (Int) -> Void
    ) async throws -> Int {
        var request = HTTPClientRequest(url: client.baseURL + Routes.assetImport)
        request.method = .POST
        request.headers.add(name: "Accept", value: "application/json")
        request.headers.add(name: "Content-Type", value: "text/csv; charset=utf-8")
        if let token = client.token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let apiKey = client.apiKey { request.headers.add(name: "X-API-Key", value: apiKey) }
        request.body = .stream(blocks.map { ByteBuffer(bytes: $0) }, length: .unknown)
        let status: Int
        let data: Data
        do {
            // The whole upload and the server's check of every row fit in this deadline.
            let response = try await client.http.execute(request, timeout: .minutes(60))
            status = Int(response.status.code)
            data = Data(try await response.body.collect(upTo: 16 * 1024 * 1024).readableBytesView)
        } catch {
            throw InventoryError.unavailable("Cannot import through the server at \(client.baseURL) (\(APIClient.describe(error)))")
        }
        guard (200..<300).contains(status) else { throw client.failure(status: status, data: data, path: Routes.assetImport) }
        let count = try client.decode(ImportResponse.self, data, status: status).imported
        progress(count)
        return count
    }
}
