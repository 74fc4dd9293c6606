import Foundation
import GRDB
import InventoryCore

/// Read by its fields' names in snake case, as `Records` are.
extension StoredUser: FetchableRecord {
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
}

/// The server's users and revoked tokens in the SQLite file.
public struct SQLiteUserStore: UserStore {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    /// Adds a user; the email must be new (case-insensitively).
    public func create(
        email: String, name: String, passwordHash: String, userType: String,
        canEditAssets: Bool, countries: [String]
    ) async throws -> StoredUser {
        try await database.write { db in
            if try Bool.fetchOne(db, sql: "SELECT 1 FROM users WHERE email = ?", arguments: [email]) == true {
                throw InventoryError.duplicate(field: "email", value: email)
            }
            try db.execute(
                sql: """
                    INSERT INTO users (email, name, password_hash, user_type, can_edit_assets, countries, created_at, token_key)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    email, name, passwordHash, userType, canEditAssets, countries.joined(separator: ","), Date(),
                    StoredUser.newTokenKey()
                ])
            guard let user = try Self.fetch(db, id: db.lastInsertedRowID) else {
                throw InventoryError.storage("the new user could not be read back")
            }
            return user
        }
    }

    public func find(email: String) async throws -> StoredUser? {
        try await database.read { db in
            try StoredUser.fetchOne(db, sql: "SELECT * FROM users WHERE email = ?", arguments: [email])
        }
    }

    public func get(id: Int64) async throws -> StoredUser? {
        try await database.read { db in try Self.fetch(db, id: id) }
    }

    static func fetch(_ db: Database, id: Int64) throws -> StoredUser? {
        try StoredUser.fetchOne(db.cachedStatement(sql: "SELECT * FROM users WHERE id = ?"), arguments: [id])
    }

    /// The user of a token, or nil when the user is gone or disabled, the token's user key is
    /// not this user's, or the token was revoked; one read.
    public func tokenUser(id: Int64, tokenKey: String, tokenID: String) async throws -> StoredUser? {
        try await database.read { db -> StoredUser? in
            if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM revoked_tokens WHERE token_id = ?"), arguments: [tokenID]) == true {
                return nil
            }
            guard let user = try Self.fetch(db, id: id), user.disabledAt == nil,
                ConstantTime.equal(user.tokenKey, tokenKey)
            else { return nil }
            return user
        }
    }

    /// Revokes a token until it would have expired anyway; old entries are pruned.
    public func revoke(tokenID: String, expiresAt: Date) async throws {
        try await database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO revoked_tokens (token_id, expires_at) VALUES (?, ?)", arguments: [tokenID, expiresAt])
            try db.execute(sql: "DELETE FROM revoked_tokens WHERE expires_at < ?", arguments: [Date()])
        }
    }

    /// Every user, by id.
    public func all() async throws -> [StoredUser] {
        try await database.read { db in try StoredUser.fetchAll(db, sql: "SELECT * FROM users ORDER BY id") }
    }

    /// Disables (or enables again) a user. Disabling also changes the user's token key, so
    /// every token issued before stops working even if the user is enabled again.
    public func setDisabled(email: String, _ disabled: Bool) async throws -> StoredUser {
        try await update(email: email) { db, id in
            if disabled {
                try db.execute(sql: "UPDATE users SET disabled_at = ?, token_key = ? WHERE id = ?", arguments: [Date(), StoredUser.newTokenKey(), id])
            } else {
                try db.execute(sql: "UPDATE users SET disabled_at = NULL WHERE id = ?", arguments: [id])
            }
        }
    }

    /// Replaces a user's password hash and token key: the user's earlier tokens stop working.
    public func setPasswordHash(email: String, _ hash: String) async throws -> StoredUser {
        try await update(email: email) { db, id in
            try db.execute(sql: "UPDATE users SET password_hash = ?, token_key = ? WHERE id = ?", arguments: [hash, StoredUser.newTokenKey(), id])
        }
    }

    private func update(email: String, _ change: @escaping @Sendable (Database, Int64) throws -> Void) async throws -> StoredUser {
        try await database.write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM users WHERE email = ?", arguments: [email]) else {
                throw InventoryError.notFound("user \(email)")
            }
            try change(db, id)
            guard let user = try Self.fetch(db, id: id) else { throw InventoryError.notFound("user \(email)") }
            return user
        }
    }
}
