import AuditAPI
import Foundation
import HTTPGuard
import Hummingbird
import InventoryCore
import Logging

/// The server's parts, built once over one back end's services.
public struct ServerParts: Sendable {
    public let backend: ServerBackend
    public let users: UserDirectory
    let signer: TokenSigner
    /// The decoder of `POST /api/v1/decode`, with its figures.
    let frames: FrameDecoder

    public var audits: any ServerAuditService { backend.audits }

    /// `bcryptCost` is 12 in production; tests lower it.
    public init(backend: ServerBackend, settings: ServerSettings, bcryptCost: UInt8 = 12) async throws {
        self.backend = backend
        users = UserDirectory(store: backend.users, cost: bcryptCost)
        guard let source = settings.signingKey ?? backend.defaultKeyFile.map(SigningKeySource.file) else {
            throw InventoryError.storage(
                """
                a server over \(backend.kind == "sqlite" ? "a database in memory" : "a database server") needs its token-signing key \
                given: set \(SigningKeySource.environmentVariable) or --jwt-key-file, the same on every server of one database
                """)
        }
        signer = try await TokenSigner(source: source)
        frames = FrameDecoder(config: settings.decoder)
    }
}

/// The router with every route, and the list of routes it serves.
public func buildRouter(_ parts: ServerParts, settings: ServerSettings, logger: Logger) -> (router: Router<AuditRequestContext>, routes: [RouteEntry])
{
    let router = Router(context: AuditRequestContext.self)
    router.add(middleware: NoStoreMiddleware())
    router.add(middleware: ErrorMiddleware(logger: logger))
    router.add(middleware: CanonicalPathMiddleware())
    if let key = settings.apiKey, !key.isEmpty { router.add(middleware: APIKeyMiddleware(key: key)) }
    let table = RouteTable()
    let backend = parts.backend
    let auth = AuthController(users: parts.users, signer: parts.signer, store: backend.users, devices: backend.devices, throttle: LoginThrottle())
    table.add(.get, Routes.health, on: router) { _, _ in
        // A server whose database cannot be reached answers 503, for a load balancer to act on.
        do {
            try await backend.ping()
        } catch {
            logger.error("health: the \(backend.kind) database cannot be reached: \(error)")
            throw InventoryError.unavailable("the database cannot be reached")
        }
        return try Response.envelope(HealthResponse(database: "reachable"))
    }
    table.add(.get, Routes.openAPI, on: router) { _, _ in
        Response(
            status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
            body: ResponseBody(byteBuffer: .init(string: OpenAPIDocument.yaml)))
    }
    OfficePage.add(to: router)
    ScanPage.add(to: router)
    auth.addPublicRoutes(to: table, on: router)
    let protected = router.group().add(middleware: AuthMiddleware(signer: parts.signer, users: parts.users))
    auth.addRoutes(to: table, on: protected)
    AuditController(audits: backend.audits, logger: logger).addRoutes(to: table, on: protected)
    AssetController(assets: backend.assets).addRoutes(to: table, on: protected)
    LabelController(assets: backend.assets, audits: backend.audits).addRoutes(to: table, on: protected)
    AccessoryController(accessories: backend.accessories).addRoutes(to: table, on: protected)
    CustomerController(customers: backend.customers).addRoutes(to: table, on: protected)
    DeviceController(devices: backend.devices).addRoutes(to: table, on: protected)
    PlanController(plans: backend.plans).addRoutes(to: table, on: protected)
    WebhookController(webhooks: backend.webhooks).addRoutes(to: table, on: protected)
    UserController(users: parts.users).addRoutes(to: table, on: protected)
    DecodeController(frames: parts.frames, rate: FrameRate(settings.decodeRate)).addRoutes(to: table, on: protected)
    return (router, table.entries)
}

/// The application: the router on `settings.host:settings.port`. `onRunning` gets the bound
/// port (useful with port 0). What must run beside the server (a PostgreSQL pool) is added to
/// its services (`addServices`): they start before the HTTP server, and a graceful shutdown
/// stops the HTTP server first. With `settings.tls` the port speaks HTTPS only; a certificate or
/// key that cannot be used is a `TLSFileError` here, before anything listens.
public func buildApplication(
    _ parts: ServerParts, settings: ServerSettings, logger: Logger = Logger(label: "audit-server"),
    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> Application<RouterResponder<AuditRequestContext>> {
    let (router, _) = buildRouter(parts, settings: settings, logger: logger)
    let connections = ConnectionCount()
    let limits = settings.limits
    return Application(
        router: router,
        // Each connection gets its guard: caps on connections in all and per address (503
        // beyond them), deadlines for headers and a minimum pace for bodies (408), a write
        // deadline, and an envelope for requests the HTTP parser rejects (400). A connection that
        // sends nothing for the idle timeout is closed.
        server: try .serving(
            .http1(
                configuration: .init(
                    additionalChannelHandlers: [ConnectionGuard(count: connections, limits: limits, answer: Refusal.envelope)],
                    idleTimeout: limits.idleTimeout)),
            over: settings.tls),
        configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "AuditStation"),
        onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? settings.port) },
        logger: logger)
}
