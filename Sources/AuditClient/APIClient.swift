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

    public init(
        baseURL: String, token: String? = nil, apiKey: String? = nil, http: HTTPClient = .station,
        timeout: Duration = .seconds(15), loginHint: String? = nil
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.token = token
        self.apiKey = apiKey
        self.http = http
        self.timeout = Self.timeAmount(timeout)
        self.loginHint = loginHint ?? "log in again with `audit-station login --server \(baseURL) --email EMAIL`"
    }

    /// Sends a call and decodes the `data` of its envelope (or, from a server that answers
    /// bare, the body itself).
    public func send<Payload: Decodable & Sendable>(
        _ method: HTTPMethod, _ path: String, query: [String: String?] = [:],
        body: (some Encodable & Sendable)? = Empty?.none,
        as type: Payload.Type = Payload.self, timeout: Duration? = nil
    ) async throws -> Payload {
        let (status, data) = try await raw(method, path, query: query, body: body, timeout: timeout)
        return try decode(Payload.self, data, status: status)
    }

    /// The same for a call only some servers offer (our extensions): nil when the server
    /// answers 404 or 405, so the caller falls back to the calls every server has.
    package func sendIfOffered<Payload: Decodable & Sendable>(
        _ method: HTTPMethod, _ path: String, query: [String: String?] = [:],
        body: (some Encodable & Sendable)? = Empty?.none,
        as type: Payload.Type = Payload.self, timeout: Duration? = nil
    ) async throws -> Payload? {
        let (status, data) = try await exchange(method, path, query: query, body: body, timeout: timeout)
        if status == 404 || status == 405 { return nil }
        guard (200..<300).contains(status) else { throw failure(status: status, data: data, path: path) }
        return try decode(Payload.self, data, status: status)
    }

    func decode<Payload: Decodable & Sendable>(_ type: Payload.Type, _ data: Data, status: Int) throws -> Payload {
        let decoder = JSONDecoder.auditStation()
        do {
            return try decoder.decode(Enveloped<Payload>.self, from: data).data
        } catch {
            if let bare = try? decoder.decode(Payload.self, from: data) { return bare }
            throw InventoryError.unavailable(
                "The server at \(baseURL) answered \(status) with a body this station cannot read (\(LoginAnswer.reason(error)))")
        }
    }

    /// Sends a call and returns the body of a successful answer as it is (reports).
    public func raw(
        _ method: HTTPMethod, _ path: String, query: [String: String?] = [:],
        body: (some Encodable & Sendable)? = Empty?.none, timeout: Duration? = nil
    ) async throws -> (status: Int, data: Data) {
        let (status, data) = try await exchange(method, path, query: query, body: body, timeout: timeout)
        guard (200..<300).contains(status) else { throw failure(status: status, data: data, path: path) }
        return (status, data)
    }

    /// One request and its answer, whatever the status; only a network failure throws.
    package func exchange(
        _ method: HTTPMethod, _ path: String, query: [String: String?],
        body: (some Encodable & Sendable)?, timeout: Duration?
    ) async throws -> (status: Int, data: Data) {
        let bytes = try body.map { (ByteBuffer(bytes: try JSONEncoder.auditStation().encode($0)), "application/json") }
        return try await exchange(method, path, query: query, bytes: bytes, timeout: timeout)
    }

    /// Sends a body that is not JSON (a photo) and returns the decoded `data` of the answer.
    public func upload<Payload: Decodable & Sendable>(
        _ method: HTTPMethod, _ path: String, query: [String: String?] = [:], bytes: [UInt8], contentType: String,
        as type: Payload.Type = Payload.self
    ) async throws -> Payload {
        let (status, data) = try await exchange(method, path, query: query, bytes: (ByteBuffer(bytes: bytes), contentType), timeout: nil)
        guard (200..<300).contains(status) else { throw failure(status: status, data: data, path: path) }
        return try decode(Payload.self, data, status: status)
    }

    package func exchange(
        _ method: HTTPMethod, _ path: String, query: [String: String?], bytes: (ByteBuffer, String)?, timeout: Duration?
    ) async throws -> (status: Int, data: Data) {
        var request = HTTPClientRequest(url: baseURL + path + Self.queryString(query))
        request.method = method
        request.headers.add(name: "Accept", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let apiKey { request.headers.add(name: "X-API-Key", value: apiKey) }
        if let (body, contentType) = bytes {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(body)
        }
        let status: Int
        let data: Data
        do {
            let response = try await http.execute(request, timeout: timeout.map(Self.timeAmount) ?? self.timeout)
            status = Int(response.status.code)
            data = Data(try await response.body.collect(upTo: 512 * 1024 * 1024).readableBytesView)
        } catch {
            throw InventoryError.unavailable(
                "Cannot reach the server at \(baseURL) (\(Self.describe(error))); scans are kept on this station and sync when it is back")
        }
        return (status, data)
    }

    /// The error of a refused call, from the envelope's `error` code; a code this station does
    /// not know is read from the HTTP status, and an answer with no envelope at all is
    /// `.unavailable` (retried), as it says nothing about the request.
    package func failure(status: Int, data: Data, path: String) -> InventoryError {
        let envelope = try? JSONDecoder.auditStation().decode(WireFailure.self, from: data)
        let message = envelope?.message ?? "HTTP \(status) from \(path)"
        if status == 401 {
            let text = envelope?.message ?? "The server refused this station's login"
            return .unauthorized(path == Routes.login ? text : "\(text): \(loginHint)")
        }
        if status >= 500 {
            return .unavailable(
                "The server at \(baseURL) failed (HTTP \(status)\(envelope?.message.map { ": \($0)" } ?? "")); scans are kept and retried")
        }
        guard let envelope, envelope.error != nil || envelope.message != nil else {
            // Not an audit API's answer (an empty 404 from a proxy, an HTML page): nothing was
            // refused, so a scan stays pending instead of being marked refused for good.
            return .unavailable(
                "The server at \(baseURL) answered \(path) with HTTP \(status) and no audit API error; is this the audit API's address?")
        }
        if let known = envelope.inventoryError(message: message) { return known }
        switch status {
        case 400, 422: return .invalid(ValidationError(fields: envelope.errors ?? ["request": [message]]))
        case 403: return .forbidden(message)
        case 404: return .notFound(message)
        case 409: return .inUse(message)
        case 408, 429: return .unavailable("The server at \(baseURL) asked to wait (HTTP \(status)): \(message)")
        default: return .invalid(ValidationError(field: "request", message: "the server refused it (HTTP \(status)): \(message)"))
        }
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

    package static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            if error == .deadlineExceeded || error == .readTimeout { return "no answer in time" }
            if error == .remoteConnectionClosed { return "the connection was closed" }
            return "\(error)"
        }
        return String(describing: error)
    }
}

/// A successful answer's `data`; `success` and `message` may be missing, and other fields are ignored.
private struct Enveloped<Payload: Decodable>: Decodable {
    var data: Payload
}

extension APIClient {
    /// `page`, `per_page` and `search` as query items.
    package static func listItems(_ query: ListQuery) -> [String: String?] {
        ["page": String(query.page), "per_page": String(query.perPage), "search": query.search]
    }
}

extension APIClient {
    /// Opens a GET whose answer is read as it arrives (our snapshot stream): nil when the
    /// server answers 404 or 405 (it does not offer the call); a refusal throws as `send` does.
    package func openStream(_ path: String, accept: String, timeout: Duration) async throws -> HTTPClientResponse? {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .GET
        request.headers.add(name: "Accept", value: accept)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let apiKey { request.headers.add(name: "X-API-Key", value: apiKey) }
        let response: HTTPClientResponse
        do {
            response = try await http.execute(request, timeout: Self.timeAmount(timeout))
        } catch {
            throw InventoryError.unavailable(
                "Cannot reach the server at \(baseURL) (\(Self.describe(error))); scans are kept on this station and sync when it is back")
        }
        let status = Int(response.status.code)
        if status == 404 || status == 405 { return nil }
        guard (200..<300).contains(status) else {
            let data = (try? await response.body.collect(upTo: 1024 * 1024)).map { Data($0.readableBytesView) } ?? Data()
            throw failure(status: status, data: data, path: path)
        }
        return response
    }
}
