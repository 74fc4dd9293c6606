import Foundation
import InventoryCore

/// The kinds of user. ADMIN may do everything; STAFF audits and edits what its permissions
/// allow; CLIENT reads, and may not audit or change customers.
public enum UserType: String, Codable, Sendable, CaseIterable {
    case admin = "ADMIN", staff = "STAFF", client = "CLIENT"
}

/// `POST /api/v1/auth/login`.
public struct LoginRequest: Codable, Sendable, Equatable {
    public var email: String
    public var password: String
    public var deviceName: String

    public init(email: String, password: String, deviceName: String) {
        self.email = email
        self.password = password
        self.deviceName = deviceName
    }
}

public struct UserInfo: Codable, Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var email: String
    public var userType: UserType
    public var canEditAssets: Bool
    /// The countries the user may audit; empty means every country.
    public var countries: [String]

    public init(id: Int64, name: String, email: String, userType: UserType, canEditAssets: Bool, countries: [String]) {
        self.id = id
        self.name = name
        self.email = email
        self.userType = userType
        self.canEditAssets = canEditAssets
        self.countries = countries
    }

    /// Whether the user may audit `country`.
    public func mayAudit(_ country: String) -> Bool {
        userType == .admin || countries.isEmpty || countries.contains(country)
    }
}

/// The answer to a login.
public struct LoginResponse: Codable, Sendable, Equatable {
    public var token: String
    public var tokenType: String
    public var expiresAt: Date
    public var user: UserInfo
    /// What the user may do, by resource: `{"assets": ["list", "view", "create", …], …}`.
    public var abilities: [String: [String]]

    public init(token: String, expiresAt: Date, user: UserInfo, abilities: [String: [String]]) {
        self.token = token
        self.tokenType = "Bearer"
        self.expiresAt = expiresAt
        self.user = user
        self.abilities = abilities
    }
}

extension UserInfo {
    /// The abilities a login answer lists for this user.
    public var abilities: [String: [String]] {
        let read = ["list", "view"]
        let write = ["create", "edit", "delete"]
        let editsAssets = userType == .admin || canEditAssets
        return [
            "audit": userType == .client ? read : read + ["start", "scan", "end"],
            "assets": editsAssets ? read + write + ["transfer", "import"] : read,
            "accessories": editsAssets ? read + write + ["checkout", "checkin"] : read,
            "customers": userType == .client ? read : read + write
        ]
    }
}
