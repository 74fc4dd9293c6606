import AsyncHTTPClient
import AuditAPI
import Foundation
import InventoryCore
import NIOCore
import NIOHTTP1

/// Calls the audit API: JSON in the envelope, errors back as `InventoryError`. A server that
/// cannot be reached, times out or fails (5xx) is `.unavailable`; a refused login is
/// `.unauthorized` with what to do next.
public struct APIClient: Sendable {
    public let baseURL: String
    public let token: String?
    public let apiKey: String?
    let http: HTTPClient
    let timeout: TimeAmount
    /// How to log in again, shown with a 401.
    let loginHint: String

    public init(baseURL: String, token: String? = nil, apiKey: String? = nil, http: HTTPClient = .shared,
                timeout: Duration = .seconds(15), loginHint: String? = nil) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.token = token; self.apiKey = apiKey; self.http = http
        self.timeout = Self.timeAmount(timeout)
        self.loginHint = loginHint ?? "log in again with `audit-station login --server \(baseURL) --email EMAIL`"
    }

    /// Sends a call and decodes the `data` of its envelope.
    public func send<Payload: Decodable & Sendable>(_ method: HTTPMethod, _ path: String, query: [String: String?] = [:],
                                                    body: (some Encodable & Sendable)? = Empty?.none,
                                                    as type: Payload.Type = Payload.self, timeout: Duration? = nil) async throws -> Payload {
        let (status, data) = try await raw(method, path, query: query, body: body, timeout: timeout)
        do {
            return try JSONDecoder.auditStation().decode(DataEnvelope<Payload>.self, from: data).data
        } catch {
            throw InventoryError.unavailable("The server at \(baseURL) answered \(status) with a body this station cannot read")
        }
    }

    /// Sends a call and returns the body of a successful answer as it is (reports).
    public func raw(_ method: HTTPMethod, _ path: String, query: [String: String?] = [:],
                    body: (some Encodable & Sendable)? = Empty?.none, timeout: Duration? = nil) async throws -> (status: Int, data: Data) {
        var request = HTTPClientRequest(url: baseURL + path + Self.queryString(query))
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let apiKey { request.headers.add(name: "X-API-Key", value: apiKey) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder.auditStation().encode(body)))
        }
        let status: Int
        let data: Data
        do {
            let response = try await http.execute(request, timeout: timeout.map(Self.timeAmount) ?? self.timeout)
            status = Int(response.status.code)
            data = Data(try await response.body.collect(upTo: 512 * 1024 * 1024).readableBytesView)
        } catch {
            throw InventoryError.unavailable("Cannot reach the server at \(baseURL) (\(Self.describe(error))); scans are kept on this station and sync when it is back")
        }
        guard (200..<300).contains(status) else { throw failure(status: status, data: data, path: path) }
        return (status, data)
    }

    func failure(status: Int, data: Data, path: String) -> InventoryError {
        let envelope = try? JSONDecoder.auditStation().decode(FailureEnvelope.self, from: data)
        if status == 401 {
            let message = envelope?.message ?? "The server refused this station's login"
            return .unauthorized(path == Routes.login ? message : "\(message): \(loginHint)")
        }
        if status >= 500 || envelope == nil {
            return .unavailable("The server at \(baseURL) failed (HTTP \(status)\(envelope.map { ": \($0.message)" } ?? "")); scans are kept and retried")
        }
        return envelope?.inventoryError(status: status) ?? .unavailable("HTTP \(status)")
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    static func queryString(_ query: [String: String?]) -> String {
        let allowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+?#"))
        let items = query.compactMap { key, value in
            value.map { "\(key)=\($0.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0)" }
        }.sorted()
        return items.isEmpty ? "" : "?" + items.joined(separator: "&")
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            if error == .deadlineExceeded || error == .readTimeout { return "no answer in time" }
            if error == .remoteConnectionClosed { return "the connection was closed" }
            return "\(error)"
        }
        return String(describing: error)
    }
}

extension APIClient {
    /// `page`, `per_page` and `search` as query items.
    static func listItems(_ query: ListQuery) -> [String: String?] {
        ["page": String(query.page), "per_page": String(query.perPage), "search": query.search]
    }
}
