import AuditAPI
import Foundation
import Hummingbird
import InventoryCore
import InventoryStore
import Logging

/// The server's parts, built once over one database.
public struct ServerParts: Sendable {
    public let database: AppDatabase
    public let audits: SQLiteAuditService
    public let users: UserDirectory
    let signer: TokenSigner

    /// `bcryptCost` is 12 in production; tests lower it.
    public init(database: AppDatabase, settings: ServerSettings, bcryptCost: UInt8 = 12) async throws {
        self.database = database
        audits = SQLiteAuditService(database: database, caseSensitive: settings.caseSensitiveTags, defaultStation: settings.defaultStation)
        let store = UserStore(database: database)
        users = UserDirectory(store: store, cost: bcryptCost)
        let path = database.writer.path
        guard let source = settings.signingKey ?? (path.hasPrefix(":memory:") || path.isEmpty ? nil : .beside(database: path)) else {
            throw InventoryError.storage("a server over a database in memory needs its signing key given (ServerSettings.signingKey)")
        }
        signer = try await TokenSigner(source: source)
    }
}

/// The router with every route, and the list of routes it serves.
public func buildRouter(_ parts: ServerParts, settings: ServerSettings, logger: Logger) -> (router: Router<AuditRequestContext>, routes: [RouteEntry]) {
    let router = Router(context: AuditRequestContext.self)
    router.add(middleware: ErrorMiddleware(logger: logger))
    router.add(middleware: CanonicalPathMiddleware())
    if let key = settings.apiKey, !key.isEmpty { router.add(middleware: APIKeyMiddleware(key: key)) }
    let table = RouteTable()
    let store = UserStore(database: parts.database)
    let devices = DeviceStore(database: parts.database)
    let auth = AuthController(users: parts.users, signer: parts.signer, store: store, devices: devices, throttle: LoginThrottle())
    table.add(.get, Routes.health, on: router) { _, _ in try Response.envelope(HealthResponse()) }
    table.add(.get, Routes.openAPI, on: router) { _, _ in
        Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                 body: ResponseBody(byteBuffer: .init(string: OpenAPIDocument.yaml)))
    }
    auth.addPublicRoutes(to: table, on: router)
    let protected = router.group().add(middleware: AuthMiddleware(signer: parts.signer, users: parts.users))
    auth.addRoutes(to: table, on: protected)
    AuditController(audits: parts.audits, logger: logger).addRoutes(to: table, on: protected)
    AssetController(assets: SQLiteAssetService(database: parts.database, caseSensitive: settings.caseSensitiveTags)).addRoutes(to: table, on: protected)
    AccessoryController(accessories: SQLiteAccessoryService(database: parts.database)).addRoutes(to: table, on: protected)
    CustomerController(customers: SQLiteCustomerService(database: parts.database)).addRoutes(to: table, on: protected)
    DeviceController(devices: devices).addRoutes(to: table, on: protected)
    return (router, table.entries)
}

/// The application: the router on `settings.host:settings.port`. `onRunning` gets the bound
/// port (useful with port 0).
public func buildApplication(_ parts: ServerParts, settings: ServerSettings, logger: Logger = Logger(label: "audit-server"),
                             onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
    let (router, _) = buildRouter(parts, settings: settings, logger: logger)
    let connections = ConnectionCount()
    let limits = settings.limits
    return Application(
        router: router,
        // Each connection gets its guard: a cap on connections (503 beyond it), a deadline for
        // headers (408), and an envelope for requests the HTTP parser rejects (400). A
        // connection that sends nothing for the idle timeout is closed.
        server: .http1(configuration: .init(additionalChannelHandlers: [ConnectionGuard(count: connections, limits: limits)],
                                            idleTimeout: limits.idleTimeout)),
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "AuditStation"),
        onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? settings.port) },
        logger: logger)
}
