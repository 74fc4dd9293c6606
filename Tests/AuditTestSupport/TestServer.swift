import AsyncHTTPClient
import AuditServer
import Foundation
import Hummingbird
import InventoryCore
import InventoryStore
import Logging
import NIOCore

/// A real server on 127.0.0.1 over a temporary database, with bcrypt cost 4 to stay quick.
/// Shared by the server and client tests.
public final class TestServer: Sendable {
    public let port: Int
    public let parts: ServerParts
    public let settings: ServerSettings
    private let task: Task<Void, any Error>

    private init(port: Int, parts: ServerParts, settings: ServerSettings, task: Task<Void, any Error>) {
        self.port = port; self.parts = parts; self.settings = settings; self.task = task
    }

    public static func temporaryPath() -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("audit-server-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("server.sqlite").path
    }

    public static func start(apiKey: String? = nil) async throws -> TestServer {
        let settings = ServerSettings(host: "127.0.0.1", port: 0, apiKey: apiKey)
        let parts = try await ServerParts(backend: .sqlite(try AppDatabase(path: temporaryPath())), settings: settings, bcryptCost: 4)
        return try await start(parts: parts, settings: settings)
    }

    /// Starts (or restarts) the server over `parts` on `settings.port` (0: any free port).
    public static func start(parts: ServerParts, settings: ServerSettings) async throws -> TestServer {
        var logger = Logger(label: "test-server")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = buildApplication(parts, settings: settings, logger: logger) { continuation.yield($0) }
        let task = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw InventoryError.unavailable("the test server did not start") }
        var bound = settings
        bound.port = port
        return TestServer(port: port, parts: parts, settings: bound, task: task)
    }

    /// Runs `body` with a fresh server and awaits the server's stop before returning, whether
    /// `body` returns or throws, so no server outlives its test.
    public static func with<T>(apiKey: String? = nil, _ body: (TestServer) async throws -> T) async throws -> T {
        try await running(try await start(apiKey: apiKey), body)
    }

    /// The same with settings of the test's own (limits, keys), over a new database.
    public static func with<T>(settings: ServerSettings, _ body: (TestServer) async throws -> T) async throws -> T {
        let parts = try await ServerParts(backend: .sqlite(try AppDatabase(path: temporaryPath())), settings: settings, bcryptCost: 4)
        return try await running(try await start(parts: parts, settings: settings), body)
    }

    /// The same for a server restarted over `parts` on `settings.port`.
    public static func with<T>(parts: ServerParts, settings: ServerSettings, _ body: (TestServer) async throws -> T) async throws -> T {
        try await running(try await start(parts: parts, settings: settings), body)
    }

    private static func running<T>(_ server: TestServer, _ body: (TestServer) async throws -> T) async throws -> T {
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    public func stop() async {
        task.cancel()
        _ = try? await task.value
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// One client for the tests, whose idle connections close soon, so a stopped server is not
    /// kept waiting for them.
    public static let http: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .milliseconds(300))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// Adds a user and logs in; returns the token.
    public func user(_ email: String, type: String = "ADMIN", countries: [String] = [], canEditAssets: Bool = true) async throws -> String {
        _ = try await parts.users.create(email: email, password: "secret-pass", name: email.components(separatedBy: "@")[0],
                                         type: .init(rawValue: type) ?? .admin, countries: countries, canEditAssets: canEditAssets)
        let answer = try await call("POST", "/api/v1/auth/login", json: #"{"email":"\#(email)","password":"secret-pass","device_name":"test"}"#)
        guard let token = answer.data?["token"] as? String else {
            throw InventoryError.unauthorized("the test login for \(email) failed: \(answer.text)")
        }
        return token
    }

    /// Adds assets straight through the store.
    public func seed(_ assets: [(tag: String, country: String)], status: String = "IN_STOCK") async throws {
        let service = parts.backend.assets
        for asset in assets {
            _ = try await service.create(AssetInput(assetTag: asset.tag, serialNum: "SN-\(asset.tag)", name: "Laptop \(asset.tag)",
                                                    status: status, country: asset.country))
        }
    }

    public struct Answer {
        public var status: Int
        public var body: [String: Any]
        public var text: String
        public var data: [String: Any]? { body["data"] as? [String: Any] }
        public var error: String? { body["error"] as? String }
    }

    /// One HTTP call with a raw body, as any client would send it.
    public func call(_ method: String, _ path: String, json: String? = nil, token: String? = nil, headers: [String: String] = [:]) async throws -> Answer {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .init(rawValue: method)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await Self.http.execute(request, timeout: .seconds(20))
        let buffer = try await response.body.collect(upTo: 64 * 1024 * 1024)
        let text = String(buffer: buffer)
        let body = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        return Answer(status: Int(response.status.code), body: body, text: text)
    }
}

extension ServerParts {
    /// The SQLite file under a server built by `TestServer` (tests that look at SQLite itself).
    public var database: AppDatabase {
        guard let audits = backend.audits as? SQLiteAuditService else { fatalError("this server does not run on SQLite") }
        return audits.database
    }
}
