import AuditAPI
import Hummingbird

/// One route the router serves: method and path template (`/api/v2/assets/{id}`).
public struct RouteEntry: Sendable, Hashable, CustomStringConvertible {
    public var method: String
    public var path: String
    public var description: String { "\(method) \(path)" }
}

/// Registers routes and remembers each one, so tests can hold the router against the OpenAPI
/// document.
final class RouteTable {
    typealias Handler = @Sendable (Request, AuditRequestContext) async throws -> Response
    private(set) var entries: [RouteEntry] = []

    func add(
        _ method: HTTPRequest.Method, _ path: String, on router: some RouterMethods<AuditRequestContext>,
        _ handler: @escaping Handler
    ) {
        entries.append(RouteEntry(method: method.rawValue, path: path))
        router.on(RouterPath(path), method: method, use: handler)
    }

    /// A route for logged-in users only. The login is checked here, the one place for every
    /// route that needs one, and the handler gets its user.
    func add(
        _ method: HTTPRequest.Method, _ path: String, on router: some RouterMethods<AuditRequestContext>,
        signedIn handler: @escaping @Sendable (Request, AuditRequestContext, UserInfo) async throws -> Response
    ) {
        add(method, path, on: router) { request, context in try await handler(request, context, try context.requireUser()) }
    }
}
