import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// `/api/v1/users`: the users of the API, for ADMIN users only (anyone else gets 403): list,
/// create, disable and enable, and set a new password. What the CLI's `users` commands do.
struct UserController {
    let users: UserDirectory

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.get, Routes.users, on: router) { _, context in
            try context.requireAdmin()
            return try Response.envelope(UsersResponse(users: try await users.store.all().map(UserRecord.init)))
        }
        routes.add(.post, Routes.users, on: router) { request, context in
            var request = request
            try context.requireAdmin()
            let body = try await request.decodeJSON(NewUserRequest.self)
            guard let type = UserType(rawValue: body.userType.uppercased()) else {
                throw InventoryError.invalid(
                    ValidationError(field: "user_type", message: "'\(body.userType.prefix(20))' is not ADMIN, STAFF or CLIENT"))
            }
            let user = try await users.create(
                email: body.email, password: body.password, name: body.name, type: type, countries: body.countries ?? [],
                canEditAssets: body.canEditAssets ?? false)
            return try Response.envelope(try await record(user.id), status: .created, message: "User created")
        }
        routes.add(.post, Routes.userDisable, on: router) { _, context in
            let admin = try context.requireAdmin()
            let user = try await stored(try context.id())
            // An admin cannot lock themselves out: another admin must do it.
            guard user.id != admin.id else { throw InventoryError.inUse("You cannot disable your own user; another admin must") }
            return try Response.envelope(UserRecord(try await users.store.setDisabled(email: user.email, true)), message: "User disabled")
        }
        routes.add(.post, Routes.userEnable, on: router) { _, context in
            try context.requireAdmin()
            let user = try await stored(try context.id())
            return try Response.envelope(UserRecord(try await users.store.setDisabled(email: user.email, false)), message: "User enabled")
        }
        routes.add(.post, Routes.userPassword, on: router) { request, context in
            var request = request
            try context.requireAdmin()
            let user = try await stored(try context.id())
            let body = try await request.decodeJSON(PasswordRequest.self)
            _ = try await users.changePassword(email: user.email, to: body.password)
            return try Response.envelope(try await record(user.id), message: "Password changed; the user's earlier logins no longer work")
        }
    }

    private func stored(_ id: Int64) async throws -> StoredUser {
        guard let user = try await users.store.get(id: id) else { throw InventoryError.notFound("user \(id)") }
        return user
    }

    private func record(_ id: Int64) async throws -> UserRecord { UserRecord(try await stored(id)) }
}

extension AuditRequestContext {
    /// The user, who must be an ADMIN.
    @discardableResult
    func requireAdmin() throws -> UserInfo {
        let user = try requireUser()
        guard user.userType == .admin else { throw InventoryError.forbidden("only ADMIN users may manage users") }
        return user
    }
}

/// A user as the API and `users list --json` show it: every field, `disabled_at` null while the
/// user may log in; never the password hash or the token key.
public struct UserRecord: Encodable, Sendable {
    public var id: Int64
    public var email: String
    public var name: String
    public var userType: String
    public var canEditAssets: Bool
    public var countries: [String]
    public var createdAt: Date
    @Nullable public var disabledAt: Date?

    public init(_ user: StoredUser) {
        id = user.id
        email = user.email
        name = user.name
        userType = user.userType
        canEditAssets = user.canEditAssets
        countries = user.countries
        createdAt = user.createdAt
        disabledAt = user.disabledAt
    }
}

public struct UsersResponse: Encodable, Sendable {
    public var users: [UserRecord]

    public init(users: [UserRecord]) { self.users = users }
}

struct NewUserRequest: Decodable, Sendable {
    var email: String
    var name: String
    var password: String
    var userType: String
    var countries: [String]?
    var canEditAssets: Bool?
}

struct PasswordRequest: Decodable, Sendable { var password: String }
