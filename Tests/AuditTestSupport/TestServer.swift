import AsyncHTTPClient
import AuditServer
import Foundation
import Hummingbird
import HummingbirdTesting
import HTTPTypes
import InventoryCore
import InventoryStore
import Logging
import NIOCore
import PostgresStore
import ServiceLifecycle
import TestKit

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
            let (database, close) = try await PostgresCluster.openNewDatabase()
            return (.postgres(database, caseSensitive: caseSensitive), .postgres(database), close)
        }
    }
}

/// How a test reaches the server.
public enum Transport: Sendable {
    /// A real server on 127.0.0.1: for clients, connection guards, slow clients and raw bytes.
    case sockets
    /// In process, through HummingbirdTesting's router framework (`app.test(.router)`): each
    /// call goes straight to the router and its middleware, with no socket, for tests of what
    /// the routes answer.
    case router
}

/// The audit server over a temporary database, with bcrypt cost 4 to stay quick: a real one on
/// 127.0.0.1, or in process (`Transport.router`). Shared by the server and client tests.
public final class TestServer: Sendable {
    /// The port on 127.0.0.1; 0 for a server reached in process.
    public let port: Int
    public let parts: ServerParts
    public let settings: ServerSettings
    private let task: Task<Void, any Error>
    /// Asks a server on sockets to shut down gracefully (nothing for an in-process one).
    private let shutDown: @Sendable () async -> Void
    /// The in-process client, when the transport is `.router`.
    private let router: (any TestClientProtocol)?
    /// Ends an in-process server's test closure.
    private let release: @Sendable () -> Void
    /// Closes the back end once the server has stopped (a PostgreSQL pool).
    private let closeBackend: @Sendable () async -> Void

    private init(
        port: Int, parts: ServerParts, settings: ServerSettings, task: Task<Void, any Error>,
        shutDown: @escaping @Sendable () async -> Void = {},
        router: (any TestClientProtocol)? = nil, release: @escaping @Sendable () -> Void = {},
        closeBackend: @escaping @Sendable () async -> Void
    ) {
        self.port = port
        self.parts = parts
        self.settings = settings
        self.task = task
        self.shutDown = shutDown
        self.router = router
        self.release = release
        self.closeBackend = closeBackend
    }

    public static func temporaryPath() -> String {
        let folder = Scratch.root.appendingPathComponent("audit-server-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("server.sqlite").path
    }

    public static func start(_ backend: Backend = .sqlite, apiKey: String? = nil, transport: Transport = .sockets) async throws -> TestServer {
        try await start(backend, settings: ServerSettings(host: "127.0.0.1", port: 0, apiKey: apiKey), transport: transport)
    }

    /// Starts a server over a new back end of the kind given, with `settings`. A server on
    /// PostgreSQL has no file to keep its signing key beside, so it gets a random key unless
    /// the settings name one.
    public static func start(_ backend: Backend, settings: ServerSettings, transport: Transport = .sockets) async throws -> TestServer {
        var settings = settings
        if backend == .postgres, settings.signingKey == nil {
            settings.signingKey = .secret(Data((0..<48).map { _ in UInt8.random(in: .min ... .max) }))
        }
        let (made, close) = try await backend.make()
        do {
            let parts = try await ServerParts(backend: made, settings: settings, bcryptCost: 4)
            return try await start(parts: parts, settings: settings, transport: transport, closeBackend: close)
        } catch {
            await close()
            throw error
        }
    }

    /// Starts (or restarts) the server over `parts` on `settings.port` (0: any free port);
    /// `closeBackend` runs once it has stopped.
    public static func start(
        parts: ServerParts, settings: ServerSettings, transport: Transport = .sockets,
        closeBackend: @escaping @Sendable () async -> Void = {}
    ) async throws -> TestServer {
        var logger = Logger(label: "test-server")
        logger.logLevel = .critical
        if transport == .router {
            return try await startInProcess(parts: parts, settings: settings, logger: logger, closeBackend: closeBackend)
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app: Application<RouterResponder<AuditRequestContext>>
        do { app = try buildApplication(parts, settings: settings, logger: logger) { continuation.yield($0) } } catch {
            await closeBackend()
            throw error
        }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task(executorPreference: ThreadsExecutor.preferred) { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            await closeBackend()
            throw InventoryError.unavailable("the test server did not start")
        }
        var bound = settings
        bound.port = port
        return TestServer(
            port: port, parts: parts, settings: bound, task: task, shutDown: { await group.triggerGracefulShutdown() },
            closeBackend: closeBackend)
    }

    /// The router under `app.test(.router)`, its client handed out of the test closure, which
    /// stays open until `stop()`: the client is valid exactly as long as the server.
    private static func startInProcess(
        parts: ServerParts, settings: ServerSettings, logger: Logger,
        closeBackend: @escaping @Sendable () async -> Void
    ) async throws -> TestServer {
        let app = try buildApplication(parts, settings: settings, logger: logger)
        let (clients, clientContinuation) = AsyncStream<any TestClientProtocol>.makeStream()
        let (done, doneContinuation) = AsyncStream<Void>.makeStream()
        let task = Task(executorPreference: ThreadsExecutor.preferred) {
            defer { clientContinuation.finish() }
            try await app.test(.router) { client in
                clientContinuation.yield(client)
                for await _ in done {}
            }
        }
        var iterator = clients.makeAsyncIterator()
        guard let client = await iterator.next() else {
            _ = try? await task.value
            await closeBackend()
            throw InventoryError.unavailable("the in-process test server did not start")
        }
        return TestServer(
            port: 0, parts: parts, settings: settings, task: task, router: client,
            release: { doneContinuation.finish() }, closeBackend: closeBackend)
    }

    /// Runs `body` with a fresh server and awaits the server's stop before returning, whether
    /// `body` returns or throws, so no server outlives its test.
    public static func with<T>(
        _ backend: Backend = .sqlite, apiKey: String? = nil, transport: Transport = .sockets,
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        try await running(try await start(backend, apiKey: apiKey, transport: transport), body)
    }

    /// The same with settings of the test's own (limits, keys), over a new database.
    public static func with<T>(
        _ backend: Backend = .sqlite, settings: ServerSettings, transport: Transport = .sockets,
        _ body: (TestServer) async throws -> T
    ) async throws -> T {
        try await running(try await start(backend, settings: settings, transport: transport), body)
    }

    /// A server reached in process (`Transport.router`), for tests of what the routes answer.
    public static func routes<T>(_ backend: Backend = .sqlite, apiKey: String? = nil, _ body: (TestServer) async throws -> T) async throws -> T {
        try await with(backend, apiKey: apiKey, transport: .router, body)
    }

    /// The same with settings of the test's own.
    public static func routes<T>(_ backend: Backend = .sqlite, settings: ServerSettings, _ body: (TestServer) async throws -> T) async throws -> T {
        try await with(backend, settings: settings, transport: .router, body)
    }

    /// The same for a server restarted over `parts` on `settings.port`.
    public static func with<T>(parts: ServerParts, settings: ServerSettings, _ body: (TestServer) async throws -> T) async throws -> T {
        try await running(try await start(parts: parts, settings: settings), body)
    }

    private static func running<T>(_ server: TestServer, _ body: (TestServer) async throws -> T) async throws -> T {
        try await withCleanup({ try await body(server) }, cleanup: { await server.stop() })
    }

    /// Stops the server (`stopGracefully`), then closes its back end.
    public func stop() async {
        release()
        await stopGracefully(task, shutDown: shutDown)
        await closeBackend()
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// One client for the tests, whose idle connections close soon, so a stopped server is not
    /// kept waiting for them. A refused connection fails at once instead of being retried until
    /// the request's deadline: the station's own retry policy, which the tests check, decides
    /// what happens next (with the retry on, each attempt at a stopped server took its 5 s).
    /// Up to 32 connections a server, so a test that sends many requests at once has them all in
    /// flight instead of queued behind the pool, and 30 s to connect, so a busy machine running
    /// the suites in parallel does not fail a request before it reaches the server.
    public static let http: HTTPClient = {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(30)))
        configuration.connectionPool = .init(idleTimeout: .milliseconds(300), concurrentHTTP1ConnectionsPerHostSoftLimit: 32)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// Adds a user and logs in; returns the token.
    public func user(_ email: String, type: String = "ADMIN", countries: [String] = [], canEditAssets: Bool = true) async throws -> String {
        _ = try await parts.users.create(
            email: email, password: "secret-pass", name: email.components(separatedBy: "@")[0],
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
            _ = try await service.create(
                AssetInput(
                    assetTag: asset.tag, serialNum: "SN-\(asset.tag)", name: "Laptop \(asset.tag)",
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

    /// One HTTP call with a raw body, as any client would send it: over a socket, or straight
    /// to the router for a server reached in process.
    public func call(_ method: String, _ path: String, json: String? = nil, token: String? = nil, headers: [String: String] = [:]) async throws
        -> Answer
    {
        if let router {
            var fields = HTTPFields()
            if let token { fields.append(HTTPField(name: .authorization, value: "Bearer \(token)")) }
            for (name, value) in headers {
                guard let field = HTTPField.Name(name) else { continue }
                fields.append(HTTPField(name: field, value: value))
            }
            if json != nil { fields.append(HTTPField(name: .contentType, value: "application/json")) }
            let response = try await router.executeRequest(
                uri: path, method: HTTPRequest.Method(rawValue: method) ?? .get, headers: fields,
                body: json.map { ByteBuffer(string: $0) })
            return Self.answer(status: response.status.code, text: String(buffer: response.body))
        }
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
        return Self.answer(status: Int(response.status.code), text: String(buffer: buffer))
    }

    /// One HTTP call with a body of any type, answering the raw bytes (photos).
    public func callBytes(_ method: String, _ path: String, body: [UInt8]? = nil, contentType: String? = nil, token: String? = nil)
        async throws -> (status: Int, bytes: [UInt8], contentType: String?)
    {
        if let router {
            var fields = HTTPFields()
            if let token { fields.append(HTTPField(name: .authorization, value: "Bearer \(token)")) }
            if let contentType { fields.append(HTTPField(name: .contentType, value: contentType)) }
            let response = try await router.executeRequest(
                uri: path, method: HTTPRequest.Method(rawValue: method) ?? .get, headers: fields, body: body.map { ByteBuffer(bytes: $0) })
            return (Int(response.status.code), Array(response.body.readableBytesView), response.headers[.contentType])
        }
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .init(rawValue: method)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await Self.http.execute(request, timeout: .seconds(20))
        let buffer = try await response.body.collect(upTo: 64 * 1024 * 1024)
        return (Int(response.status.code), Array(buffer.readableBytesView), response.headers.first(name: "Content-Type"))
    }

    static func answer(status: Int, text: String) -> Answer {
        let body = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        return Answer(status: status, body: body, text: text)
    }
}

extension ServerParts {
    /// The SQLite file under a server built by `TestServer` (tests that look at SQLite itself).
    public var database: AppDatabase {
        guard let audits = backend.audits as? SQLiteAuditService else { fatalError("this server does not run on SQLite") }
        return audits.database
    }
}
