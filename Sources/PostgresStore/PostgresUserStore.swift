import Foundation
import InventoryCore
import PostgresNIO

/// The server's users and revoked tokens in PostgreSQL, shared by every server on the database:
/// a token issued by one server is checked, and revoked, on all of them.
public struct PostgresUserStore: UserStore {
    let database: PostgresDatabase

    public init(database: PostgresDatabase) { self.database = database }

    /// Adds a user; the email must be new (ignoring the case of ASCII letters, as on SQLite).
    public func create(
        email: String, name: String, passwordHash: String, userType: String,
        canEditAssets: Bool, countries: [String]
    ) async throws -> StoredUser {
        try await database.transaction { c in
            if try await c.row("SELECT 1 FROM users WHERE audit_fold(email) = audit_fold(\(email))") != nil {
                throw InventoryError.duplicate(field: "email", value: email)
            }
            guard
                let row = try await c.row(
                    """
                    INSERT INTO users (email, name, password_hash, user_type, can_edit_assets, countries, created_at, token_key)
                    VALUES (\(email), \(name), \(passwordHash), \(userType), \(canEditAssets), \(countries.joined(separator: ",")), \(Date()),
                            \(StoredUser.newTokenKey())) RETURNING *
                    """)
            else { throw InventoryError.storage("the new user could not be read back") }
            return try PGRows.user(row)
        }
    }

    public func find(email: String) async throws -> StoredUser? {
        try await database.read { c in
            try await c.row("SELECT * FROM users WHERE audit_fold(email) = audit_fold(\(email))").map(PGRows.user)
        }
    }

    public func get(id: Int64) async throws -> StoredUser? {
        try await database.read { c in try await c.row("SELECT * FROM users WHERE id = \(id)").map(PGRows.user) }
    }

    /// The user of a token, or nil when the user is gone or disabled, the token's user key is
    /// not this user's, or the token was revoked; one query.
    public func tokenUser(id: Int64, tokenKey: String, tokenID: String) async throws -> StoredUser? {
        var binds = PostgresBindings()
        binds.append(tokenID)
        binds.append(id)
        return try await database.read { c in
            guard let row = try await c.rows(TokenUser.self, binds).first, try !row.get("revoked", as: Bool.self) else { return nil }
            let user = try PGRows.user(row)
            guard user.disabledAt == nil, ConstantTime.equal(user.tokenKey, tokenKey) else { return nil }
            return user
        }
    }

    /// Revokes a token until it would have expired anyway; old entries are pruned.
    public func revoke(tokenID: String, expiresAt: Date) async throws {
        try await database.transaction { c in
            try await c.run(
                """
                INSERT INTO revoked_tokens (token_id, expires_at) VALUES (\(tokenID), \(expiresAt))
                ON CONFLICT (token_id) DO UPDATE SET expires_at = excluded.expires_at
                """)
            try await c.run("DELETE FROM revoked_tokens WHERE expires_at < \(Date())")
        }
    }

    public func all() async throws -> [StoredUser] {
        try await database.read { c in try await c.rows("SELECT * FROM users ORDER BY id").map(PGRows.user) }
    }

    /// Disables (or enables again) a user. Disabling also changes the user's token key, so
    /// every token issued before stops working even if the user is enabled again.
    public func setDisabled(email: String, _ disabled: Bool) async throws -> StoredUser {
        try await update(email: email) { c, id in
            if disabled {
                try await c.run("UPDATE users SET disabled_at = \(Date()), token_key = \(StoredUser.newTokenKey()) WHERE id = \(id)")
            } else {
                try await c.run("UPDATE users SET disabled_at = NULL WHERE id = \(id)")
            }
        }
    }

    /// Replaces a user's password hash and token key: the user's earlier tokens stop working.
    public func setPasswordHash(email: String, _ hash: String) async throws -> StoredUser {
        try await update(email: email) { c, id in
            try await c.run("UPDATE users SET password_hash = \(hash), token_key = \(StoredUser.newTokenKey()) WHERE id = \(id)")
        }
    }

    private func update(email: String, _ change: @escaping @Sendable (PostgresConnection, Int64) async throws -> Void) async throws -> StoredUser {
        try await database.transaction { c in
            guard let row = try await c.row("SELECT id FROM users WHERE audit_fold(email) = audit_fold(\(email)) FOR UPDATE") else {
                throw InventoryError.notFound("user \(email)")
            }
            let id: Int64 = try row.get("id")
            try await change(c, id)
            guard let user = try await c.row("SELECT * FROM users WHERE id = \(id)").map(PGRows.user) else {
                throw InventoryError.notFound("user \(email)")
            }
            return user
        }
    }
}

/// The statement of every authenticated request: the token's user and whether the token was
/// revoked. $1 token id, $2 user id.
enum TokenUser: PreparedSQL {
    static let sql = "SELECT u.*, EXISTS (SELECT 1 FROM revoked_tokens WHERE token_id = $1) AS revoked FROM users u WHERE u.id = $2"
    static let types: [PostgresDataType] = [.text, .int8]
}
