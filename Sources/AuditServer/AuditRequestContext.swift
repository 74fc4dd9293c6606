import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// The context of one request: Hummingbird's core storage, and the user once the token checks out.
public struct AuditRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The signed-in user; nil before the auth middleware ran and on public routes.
    public var user: UserInfo?
    /// The token's claims, for logout.
    var token: TokenClaims?

    /// The client's address (the login limit counts wrong passwords per address too).
    public let peer: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress
    }

    /// Bodies are read with each route's own limit; this is the ceiling for any other reader.
    public var maxUploadSize: Int { BodyLimits.standard }

    /// The user, or 401 when a route that needs one is reached without.
    func requireUser() throws -> UserInfo {
        guard let user else {
            throw InventoryError.unauthorized("Log in first: send `Authorization: Bearer <token>` from POST \(Routes.login)")
        }
        return user
    }
}
