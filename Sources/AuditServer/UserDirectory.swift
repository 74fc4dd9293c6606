import AuditAPI
import Foundation
import HummingbirdBcrypt
import InventoryCore
import NIOPosix
import Synchronization

/// Users: creating them with bcrypt-hashed passwords, and checking logins.
public struct UserDirectory: Sendable {
    public let store: any UserStore
    /// bcrypt's cost: 12 in production; tests may lower it to stay quick.
    let cost: UInt8

    public init(store: any UserStore, cost: UInt8 = 12) {
        self.store = store
        self.cost = cost
    }

    /// The variable that sets bcrypt's cost for new password hashes (`users add`, `users passwd`,
    /// and the server's own): 12 when unset, as most deployments want. A slow machine may lower
    /// it, a fast one raise it; each step doubles the work of a login. A hash keeps the cost it
    /// was made with, so logins to existing users are checked as they were.
    public static let costVariable = "AUDIT_STATION_BCRYPT_COST"

    /// bcrypt's cost from `costVariable`: 12 when unset; a whole number from 4 to 31, else a
    /// clear error.
    public static func configuredCost(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> UInt8 {
        guard let text = environment[costVariable]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return 12 }
        guard let cost = UInt8(text), (4...31).contains(cost) else {
            throw InventoryError.invalid(
                ValidationError(
                    field: costVariable, message: "'\(text.prefix(20))' is not a bcrypt cost: give a whole number from 4 to 31 (12 when unset)"))
        }
        return cost
    }

    /// Adds a user. Email, name and password are checked; countries are ISO codes.
    public func create(
        email: String, password: String, name: String, type: UserType, countries: [String] = [],
        canEditAssets: Bool = false
    ) async throws -> UserInfo {
        var errors = ValidationError()
        let email = email.trimmingCharacters(in: .whitespaces)
        if email.count > 254 || email.split(separator: "@").count != 2 || email.contains(where: \.isWhitespace)
            || email.hasPrefix("@") || email.hasSuffix("@")
        {
            errors.add("email", "'\(email.prefix(60))' is not an email address")
        }
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty { errors.add("name", "is required") }
        if password.count < 8 { errors.add("password", "must be at least 8 characters") }
        if password.utf8.count > 72 { errors.add("password", "must be at most 72 bytes (bcrypt's limit)") }
        let codes = countries.compactMap { code in
            errors.collect { () throws(ValidationError) in try Country.normalize(code, field: "countries") }
        }
        guard errors.isEmpty else { throw InventoryError.invalid(errors) }
        let hash = try await Self.hash(password, cost: cost)
        let stored = try await store.create(
            email: email, name: name, passwordHash: hash, userType: type.rawValue,
            canEditAssets: canEditAssets, countries: Array(Set(codes)).sorted())
        return Self.info(stored)
    }

    /// Sets a new password (checked like a new user's); the user's earlier tokens stop working.
    public func changePassword(email: String, to password: String) async throws -> UserInfo {
        try Self.checkPassword(password)
        let hash = try await Self.hash(password, cost: cost)
        return Self.info(try await store.setPasswordHash(email: email.trimmingCharacters(in: .whitespaces), hash))
    }

    static func checkPassword(_ password: String) throws {
        var errors = ValidationError()
        if password.count < 8 { errors.add("password", "must be at least 8 characters") }
        if password.utf8.count > 72 { errors.add("password", "must be at most 72 bytes (bcrypt's limit)") }
        guard errors.isEmpty else { throw InventoryError.invalid(errors) }
    }

    /// The user whose password matches, or 401. An unknown email, a disabled user and a wrong
    /// password take the same time: each runs one bcrypt at this directory's cost (against a
    /// dummy hash for an unknown email), and a disabled user is refused after it.
    func authenticate(email: String, password: String) async throws -> StoredUser {
        let stored = try await store.find(email: email.trimmingCharacters(in: .whitespaces))
        let hash: String
        if let stored { hash = stored.passwordHash } else { hash = try await Self.dummyHash(cost: cost) }
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
        guard let stored, matches, stored.disabledAt == nil else { throw InventoryError.unauthorized("Wrong email or password") }
        return stored
    }

    /// The user a token names, unless the token was revoked or the user removed.
    func tokenUser(_ claims: TokenClaims) async throws -> UserInfo {
        guard let id = claims.userID, let stored = try await store.tokenUser(id: id, tokenKey: claims.uky, tokenID: claims.jti.value) else {
            throw InventoryError.unauthorized("This login was ended (logged out, or the user was removed); log in again")
        }
        return Self.info(stored)
    }

    static func info(_ stored: StoredUser) -> UserInfo {
        UserInfo(
            id: stored.id, name: stored.name, email: stored.email, userType: UserType(rawValue: stored.userType) ?? .client,
            canEditAssets: stored.canEditAssets, countries: stored.countries)
    }

    /// A real hash of a random password at `cost`, verified against when the email is unknown,
    /// made once per cost.
    private static func dummyHash(cost: UInt8) async throws -> String {
        if let hash = dummyHashes.withLock({ $0[cost] }) { return hash }
        let hash = try await Self.hash(UUID().uuidString, cost: cost)
        return dummyHashes.withLock { hashes in
            if let first = hashes[cost] { return first }
            hashes[cost] = hash
            return hash
        }
    }
    private static let dummyHashes = Mutex<[UInt8: String]>([:])

    /// bcrypt on NIO's thread pool for blocking work: a hash holds its thread for a quarter of a
    /// second at cost 12, and on the cooperative pool (two threads on two cores) a few logins
    /// at once would stall every other request and scan.
    static func hash(_ password: String, cost: UInt8) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }
}
