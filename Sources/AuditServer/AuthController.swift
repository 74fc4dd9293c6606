import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// `POST /api/v1/auth/login`, `POST /api/v1/auth/logout`, `GET /api/v1/auth/me`.
struct AuthController {
    let users: UserDirectory
    let signer: TokenSigner
    let store: any UserStore
    let devices: any DeviceStore
    let throttle: LoginThrottle

    func addPublicRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.post, Routes.login, on: router) { request, context in
            var request = request
            let body = try await request.decodeJSON(LoginRequest.self)
            // Counted as a failure before bcrypt runs, so guesses sent at once meet the limit too.
            if let wait = throttle.reserve(email: body.email, address: context.peer) { throw APIFailure.tooManyAttempts(retryAfter: wait) }
            let stored: StoredUser
            do {
                stored = try await users.authenticate(email: body.email, password: body.password)
            } catch InventoryError.unauthorized(let message) {
                throw InventoryError.unauthorized(message)
            } catch {
                throttle.unchecked(email: body.email, address: context.peer)
                throw error
            }
            throttle.succeeded(email: body.email, address: context.peer)
            try await devices.seen(userID: stored.id, deviceName: body.deviceName)
            let user = UserDirectory.info(stored)
            let (token, claims) = try await signer.issue(userID: user.id, userKey: stored.tokenKey)
            return try Response.envelope(
                LoginResponse(token: token, expiresAt: claims.expiresAt, user: user, abilities: user.abilities),
                message: "Logged in as \(user.name)")
        }
    }

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.post, Routes.logout, on: router) { _, context in
            if let token = context.token { try await store.revoke(tokenID: token.jti.value, expiresAt: token.expiresAt) }
            return try Response.envelope(Empty(), message: "Logged out")
        }
        routes.add(.get, Routes.me, on: router) { _, _, user in
            try Response.envelope(user)
        }
    }
}
