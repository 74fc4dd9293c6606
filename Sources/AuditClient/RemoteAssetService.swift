import AuditAPI
import Foundation
import InventoryCore

/// Assets over the API (`/api/v2/assets`).
public struct RemoteAssetService: AssetService {
    let client: APIClient

    public init(client: APIClient) { self.client = client }

    public func list(_ filter: AssetFilter, query: ListQuery) async throws -> Page<Asset> {
        var items = APIClient.listItems(query)
        items["status"] = filter.status?.rawValue
        items["country"] = filter.country
        items["customer_id"] = filter.customerId.map(String.init)
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
        try await client.send(.DELETE, Routes.path(Routes.asset, ["id": String(id)]), query: ["mode": mode.rawValue],
                              as: DeleteAssetResponse.self).asset
    }

    public func transfer(id: Int64, _ request: TransferRequest) async throws -> Asset {
        try await client.send(.POST, Routes.path(Routes.assetTransfer, ["id": String(id)]), body: request)
    }

    /// Sends the rows as the JSON body of one request. Rows the reader already found bad fail
    /// here, before anything is sent.
    public func importAssets(streaming chunks: AsyncThrowingStream<[ImportRow], any Error>,
                             progress: @escaping @Sendable (Int) -> Void) async throws -> Int {
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
}
