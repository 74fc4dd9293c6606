import Foundation

// The services a server runs on. The API layer (`AuditServer`) sees only these protocols; each
// database back end (SQLite in `InventoryStore`, PostgreSQL in `PostgresStore`) implements all
// of them and hands them over as one `ServerBackend`.

/// The audit workflow as a server offers it: `AuditService`, plus batches of scans, history
/// within a user's countries, and the snapshot a connected station decides scans from.
public protocol ServerAuditService: AuditService, ScanPhotoService {
    /// Stores each scan as `record(_:)` does, in one transaction; one outcome per scan, in order.
    func record(batch requests: [ScanRequest]) async throws -> [Result<ScanResult, InventoryError>]
    /// Past and running audits that pass `filter`, limited to `allowed` countries (nil: all),
    /// filtered before paging so `total` counts only what the user may see.
    func history(_ filter: AuditHistoryFilter, within allowed: Set<String>?, query: ListQuery) async throws -> Page<AuditSession>
    /// One page of the expected set as a connected station copies it: the entries whose asset
    /// id is above `after` (nil: from the first), in asset id order, at most `limit`, each with
    /// the asset as it is now (what scans match) and its first scan. Keyset paging, so each page
    /// is an indexed range read whatever the audit's size.
    func snapshotExpected(auditID: AuditID, after: Int64?, limit: Int) async throws -> [AuditSnapshot.Expected]
    /// One page of the audit's unexpected entries: those whose key is above `after` (nil: from
    /// the first), in key order, at most `limit`, each with its asset as recorded (nil for an
    /// unknown identifier) and its first scan.
    func snapshotUnexpected(auditID: AuditID, after: String?, limit: Int) async throws -> [AuditSnapshot.Unexpected]
    /// The country of an audit, running or ended (it never changes), for the permission check
    /// of each scan; a back end may keep it in memory.
    func country(ofAudit id: AuditID) async throws -> String
    /// The audit a stored scan belongs to, with its country (for the void's permission check,
    /// in the same read), or nil when no scan has that id.
    func audit(ofScan scanID: String) async throws -> (id: AuditID, country: String)?
    /// The audit's numbers by location, station, user and hour, computed in the database.
    func breakdown(auditID: AuditID) async throws -> AuditBreakdown
    /// Keeps what a station said of itself on an audit (`AuditStation`): first and last heard
    /// from, and its waiting scans.
    func heard(_ report: StationReport) async throws
    /// The stations heard from on an audit, by name.
    func stations(auditID: AuditID) async throws -> [AuditStation]
}

extension ServerAuditService {
    public func country(ofAudit id: AuditID) async throws -> String { try await audit(id: id).country }

    /// Past and running audits of `country` (or of any country), limited to `allowed`.
    public func history(country: String?, within allowed: Set<String>?, query: ListQuery) async throws -> Page<AuditSession> {
        try await history(AuditHistoryFilter(country: country), within: allowed, query: query)
    }
}

/// Which audits a history lists: of a country; whose scope covers a location (narrowed to it,
/// or of a whole country); started from one day to another (UTC days, both included).
public struct AuditHistoryFilter: Sendable, Equatable {
    public var country: String?
    public var location: String?
    /// The first instant that counts, and the first that no longer does.
    public var startedFrom: Date?
    public var startedBefore: Date?

    public init(country: String? = nil, location: String? = nil, startedFrom: Date? = nil, startedBefore: Date? = nil) {
        self.country = country
        self.location = location
        self.startedFrom = startedFrom
        self.startedBefore = startedBefore
    }

    /// A day `YYYY-MM-DD` (UTC) as its first instant, or a field error naming `field`.
    public static func day(_ text: String, field: String) throws(ValidationError) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            calendar.component(.day, from: date) == day, calendar.component(.month, from: date) == month
        else { throw ValidationError(field: field, message: "'\(text.prefix(20))' is not a date in the form YYYY-MM-DD") }
        return date
    }
}

/// The server's users and their tokens: stored users (passwords only as hashes), revoked
/// tokens, and the per-user token key that every token carries.
public protocol UserStore: Sendable {
    /// Adds a user; the email must be new (case-insensitively).
    func create(
        email: String, name: String, passwordHash: String, userType: String,
        canEditAssets: Bool, countries: [String]
    ) async throws -> StoredUser
    func find(email: String) async throws -> StoredUser?
    func get(id: Int64) async throws -> StoredUser?
    /// The user of a token, or nil when the user is gone or disabled, the token's user key is
    /// not this user's, or the token was revoked.
    func tokenUser(id: Int64, tokenKey: String, tokenID: String) async throws -> StoredUser?
    /// Revokes a token until it would have expired anyway.
    func revoke(tokenID: String, expiresAt: Date) async throws
    /// Every user, by id.
    func all() async throws -> [StoredUser]
    /// Disables (or enables again) a user; disabling also changes the token key.
    func setDisabled(email: String, _ disabled: Bool) async throws -> StoredUser
    /// Replaces a user's password hash and token key: earlier tokens stop working.
    func setPasswordHash(email: String, _ hash: String) async throws -> StoredUser
}

/// The devices users log in from, with their activity.
public protocol DeviceStore: Sendable {
    /// Records a login (or a push-token registration) from `deviceName`.
    func seen(userID: Int64, deviceName: String, platform: String?, pushToken: String?) async throws
    /// Devices of one user, or of every user (nil), most recently active first.
    func list(userID: Int64?) async throws -> [DeviceRecord]
}

extension DeviceStore {
    public func seen(userID: Int64, deviceName: String) async throws {
        try await seen(userID: userID, deviceName: deviceName, platform: nil, pushToken: nil)
    }
}

/// Every service of a server over one database.
public struct ServerBackend: Sendable {
    public var audits: any ServerAuditService
    public var assets: any AssetService
    public var accessories: any AccessoryService
    public var customers: any CustomerService
    public var users: any UserStore
    public var devices: any DeviceStore
    /// Cycle counts: audit plans and what is due.
    public var plans: any AuditPlanService
    /// Webhooks and their outbox.
    public var webhooks: any WebhookService
    /// What the back end is, for logs and `/health` ("sqlite", "postgresql").
    public var kind: String
    /// Where the token-signing key file lives unless one is given: beside a database file.
    /// Nil when the database is not a file (in memory, or a server), so the key must be given.
    public var defaultKeyFile: String?
    /// Throws when the database cannot be reached; `/health` reports it.
    public var ping: @Sendable () async throws -> Void

    public init(
        audits: any ServerAuditService, assets: any AssetService, accessories: any AccessoryService, customers: any CustomerService,
        users: any UserStore, devices: any DeviceStore, plans: any AuditPlanService,
        webhooks: any WebhookService, kind: String, defaultKeyFile: String? = nil, ping: @escaping @Sendable () async throws -> Void
    ) {
        self.audits = audits
        self.assets = assets
        self.accessories = accessories
        self.customers = customers
        self.users = users
        self.devices = devices
        self.plans = plans
        self.webhooks = webhooks
        self.kind = kind
        self.defaultKeyFile = defaultKeyFile
        self.ping = ping
    }
}

/// What a connected station copies of one audit to decide scans by itself: the expected set
/// with first scans, and the unexpected entries recorded so far. Nothing else of the inventory:
/// a scan of any other identifier is decided by the server. Sent a page at a time
/// (`ServerAuditService.snapshotExpected`, `snapshotUnexpected`) and streamed to the station.
public enum AuditSnapshot {
    public struct Expected: Sendable, Equatable {
        public var asset: AssetBrief
        public var firstScan: FirstScan?
        public init(asset: AssetBrief, firstScan: FirstScan?) {
            self.asset = asset
            self.firstScan = firstScan
        }
    }

    public struct Unexpected: Sendable, Equatable {
        /// `AuditRules.unexpectedKey`: one per known asset, else one per identifier.
        public var key: String
        /// The identifier first scanned.
        public var identifier: String
        public var reason: UnexpectedReason
        /// The asset as recorded (nil for an unknown identifier).
        public var asset: AssetBrief?
        public var firstScan: FirstScan

        public init(key: String, identifier: String, reason: UnexpectedReason, asset: AssetBrief?, firstScan: FirstScan) {
            self.key = key
            self.identifier = identifier
            self.reason = reason
            self.asset = asset
            self.firstScan = firstScan
        }
    }

    /// Rows a server reads a page at a time.
    public static let pageSize = 5_000
}

/// A user of the server, as stored: the password only as a bcrypt hash. Read from its row by its
/// fields' names in snake case, on both back ends.
public struct StoredUser: Decodable, Sendable, Equatable {
    public var id: Int64
    public var email: String
    public var name: String
    public var passwordHash: String
    /// ADMIN, STAFF or CLIENT.
    public var userType: String
    public var canEditAssets: Bool
    /// Countries the user may audit; empty means every country.
    @CommaJoined public var countries: [String]
    public var createdAt: Date
    /// A random key made with the user and never given to another; tokens carry it, so a
    /// token cannot name a different user than the one it was issued to.
    public var tokenKey: String
    /// When the user was disabled; a disabled user cannot log in and their tokens stop working.
    public var disabledAt: Date?
}

/// A list kept in one text column with its items joined by commas (a user's countries): read
/// from the column's text, an empty text being no item.
@propertyWrapper
public struct CommaJoined: Decodable, Sendable, Equatable {
    public var wrappedValue: [String]

    public init(wrappedValue: [String]) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(String.self).split(separator: ",").map(String.init)
    }
}

/// A device a user logs in from, with its activity: the last login or scan, and the scans
/// recorded under its name by that user.
public struct DeviceRecord: Codable, Sendable, Equatable {
    public var id: Int64
    public var deviceName: String
    public var platform: String?
    public var userId: Int64
    public var user: String
    public var lastActiveAt: Date
    public var scans: Int
    /// The scans the device last said were waiting to be sent, on any audit (`AuditStation`);
    /// nil when it never reported.
    public var waiting: Int?

    public init(
        id: Int64, deviceName: String, platform: String? = nil, userId: Int64, user: String, lastActiveAt: Date, scans: Int, waiting: Int? = nil
    ) {
        self.id = id
        self.deviceName = deviceName
        self.platform = platform
        self.userId = userId
        self.user = user
        self.lastActiveAt = lastActiveAt
        self.scans = scans
        self.waiting = waiting
    }
}

extension StoredUser {
    /// A new random token key: 128 bits as hex.
    public static func newTokenKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }
}
