import AsyncHTTPClient
import AuditServer
import Foundation
import Hummingbird
import InventoryCore
import InventoryStore
import Logging
import NIOCore
import PostgresStore

/// The database a test server runs on; contract tests take each in turn.
public enum Backend: String, CaseIterable, Sendable {
    /// A temporary SQLite file.
    case sqlite
    /// A new database on the test process's private PostgreSQL cluster (`PostgresCluster`).
    case postgres

    /// A new, empty back end of this kind, and what closes it when the test is done.
    public func make(caseSensitive: Bool = true) async throws -> (backend: ServerBackend, close: @Sendable () async -> Void) {
        let (backend, _, close) = try await makePair(caseSensitive: caseSensitive)
        return (backend, close)
    }

    /// Two back ends over one new database: one matching as `caseSensitive` says, and one
    /// exact, for tests that register identifiers differing only in case.
    public func makePair(caseSensitive: Bool) async throws -> (matching: ServerBackend, exact: ServerBackend, close: @Sendable () async -> Void) {
        switch self {
        case .sqlite:
            let database = try AppDatabase(path: TestServer.temporaryPath())
            return (.sqlite(database, caseSensitive: caseSensitive), .sqlite(database), {})
        case .postgres:
            let database = try await PostgresCluster.openNewDatabase()
            return (.postgres(database, caseSensitive: caseSensitive), .postgres(database), { await database.close() })
        }
    }
}

/// A real server on 127.0.0.1 over a temporary database, with bcrypt cost 4 to stay quick.
/// Shared by the server and client tests.
public final class TestServer: Sendable {
    public let port: Int
    public let parts: ServerParts
    public let settings: ServerSettings
    private let task: Task<Void, any Error>
    /// Closes the back end once the server has stopped (a PostgreSQL pool).
    private let closeBackend: @Sendable () async -> Void

    private init(port: Int, parts: ServerParts, settings: ServerSettings, task: Task<Void, any Error>,
                 closeBackend: @escaping @Sendable () async -> Void) {
        self.port = port; self.parts = parts; self.settings = settings; self.task = task; self.closeBackend = closeBackend
    }

    public static func temporaryPath() -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("audit-server-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("server.sqlite").path
    }

    public static func start(_ backend: Backend = .sqlite, apiKey: String? = nil) async throws -> TestServer {
        try await start(backend, settings: ServerSettings(host: "127.0.0.1", port: 0, apiKey: apiKey))
    }

    /// Starts a server over a new back end of the kind given, with `settings`. A server on
    /// PostgreSQL has no file to keep its signing key beside, so it gets a random key unless
    /// the settings name one.
    public static func start(_ backend: Backend, settings: ServerSettings) async throws -> TestServer {
        var settings = settings
        if backend == .postgres, settings.signingKey == nil {
            settings.signingKey = .secret(Data((0..<48).map { _ in UInt8.random(in: .min ... .max) }))
        }
        let (made, close) = try await backend.make()
        do {
            let parts = try await ServerParts(backend: made, settings: settings, bcryptCost: 4)
            return try await start(parts: parts, settings: settings, closeBackend: close)
        } catch {
            await close()
            throw error
        }
    }

    /// Starts (or restarts) the server over `parts` on `settings.port` (0: any free port);
    /// `closeBackend` runs once it has stopped.
    public static func start(parts: ServerParts, settings: ServerSettings,
                             closeBackend: @escaping @Sendable () async -> Void = {}) async throws -> TestServer {
        var logger = Logger(label: "test-server")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = buildApplication(parts, settings: settings, logger: logger) { continuation.yield($0) }
        let task = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            await closeBackend()
            throw InventoryError.unavailable("the test server did not start")
        }
        var bound = settings
        bound.port = port
        return TestServer(port: port, parts: parts, settings: bound, task: task, closeBackend: closeBackend)
    }

    /// Runs `body` with a fresh server and awaits the server's stop before returning, whether
    /// `body` returns or throws, so no server outlives its test.
    public static func with<T>(_ backend: Backend = .sqlite, apiKey: String? = nil, _ body: (TestServer) async throws -> T) async throws -> T {
        try await running(try await start(backend, apiKey: apiKey), body)
    }

    /// The same with settings of the test's own (limits, keys), over a new database.
    public static func with<T>(_ backend: Backend = .sqlite, settings: ServerSettings, _ body: (TestServer) async throws -> T) async throws -> T {
        try await running(try await start(backend, settings: settings), body)
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
        await closeBackend()
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
