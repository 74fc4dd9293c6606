import Foundation

/// `POST /api/v1/audit/{audit_id}/photos/find`: which of these identifiers has a scan with a
/// photo in the audit (a connected station marks other stations' evidence in its lists).
public struct PhotoFindRequest: Codable, Sendable, Equatable {
    /// At most `limit` identifiers.
    public var identifiers: [String]
    public static let limit = 100
    public init(identifiers: [String]) { self.identifiers = identifiers }
}

/// The answer: each identifier that has one, with the scan whose photo it is (its first with a photo).
public struct PhotoFindResponse: Codable, Sendable, Equatable {
    public var photoScans: [String: String]
    public init(photoScans: [String: String]) { self.photoScans = photoScans }
}

/// The answer to a photo upload.
public struct PhotoStored: Codable, Sendable, Equatable {
    public var scanId: String
    public var bytes: Int

    public init(scanId: String, bytes: Int) {
        self.scanId = scanId
        self.bytes = bytes
    }
}
import InventoryCore

/// `POST /api/v1/audit/start`.
public struct StartRequest: Codable, Sendable, Equatable {
    public var country: String
    /// Narrows the audit to these locations of the country (absent: the whole country). A
    /// server of the seeds' API ignores it.
    public var locations: [String]?
    public init(country: String, locations: [String]? = nil) {
        self.country = country
        self.locations = locations
    }
}

/// `GET /api/v1/audit/locations?country=`.
public struct LocationsResponse: Codable, Sendable, Equatable {
    public var country: String
    public var locations: [LocationCount]
    public init(country: String, locations: [LocationCount]) {
        self.country = country
        self.locations = locations
    }
}

/// `POST /api/v1/audit/end`.
public struct EndRequest: Codable, Sendable, Equatable {
    public var auditId: AuditID?
    /// End even though stations may still hold scans of the audit (`STATIONS_OUT`).
    public var force: Bool?
    public init(auditId: AuditID? = nil, force: Bool? = nil) {
        self.auditId = auditId
        self.force = force
    }
}

/// `POST /api/v1/audit/{audit_id}/stations`: a station reports on itself while it works on an
/// audit (`StationReport`); the answer is the audit, so the station learns of its end.
/// `GET` lists the stations heard from.
public struct StationReportBody: Codable, Sendable, Equatable {
    public var deviceName: String
    /// Scans waiting in the station's outbox.
    public var waiting: Int?
    public init(deviceName: String, waiting: Int?) {
        self.deviceName = deviceName
        self.waiting = waiting
    }
}

public struct AuditStationsResponse: Codable, Sendable, Equatable {
    public var audit: AuditSession
    public var stations: [AuditStation]
    public init(audit: AuditSession, stations: [AuditStation]) {
        self.audit = audit
        self.stations = stations
    }
}

/// `POST /api/v1/audit/{audit_id}/reconcile`: each action is a flag, absent meaning false.
/// `preview: true` lists the changes and changes nothing (with no action named it previews
/// them all); otherwise at least one action must be chosen.
public struct ReconcileBody: Codable, Sendable, Equatable {
    public var preview: Bool?
    public var moveMisplaced: Bool?
    public var markMissing: Bool?
    public var registerUnknown: Bool?
    public var restoreFound: Bool?
    public var setQuantities: Bool?

    public init(preview: Bool? = nil, actions: Set<ReconcileAction>) {
        self.preview = preview
        moveMisplaced = actions.contains(.moveMisplaced) ? true : nil
        markMissing = actions.contains(.markMissing) ? true : nil
        registerUnknown = actions.contains(.registerUnknown) ? true : nil
        restoreFound = actions.contains(.restoreFound) ? true : nil
        setQuantities = actions.contains(.setQuantities) ? true : nil
    }

    public var actions: Set<ReconcileAction> {
        var chosen = Set<ReconcileAction>()
        if moveMisplaced == true { chosen.insert(.moveMisplaced) }
        if markMissing == true { chosen.insert(.markMissing) }
        if registerUnknown == true { chosen.insert(.registerUnknown) }
        if restoreFound == true { chosen.insert(.restoreFound) }
        if setQuantities == true { chosen.insert(.setQuantities) }
        return chosen
    }
}

/// `GET /api/v1/audit/status`: the running audit (of `country` when named), and every running
/// audit the user may see.
public struct StatusResponse: Codable, Sendable, Equatable {
    public var active: Bool
    public var audit: AuditSession?
    public var audits: [AuditSession]
    public init(audit: AuditSession?, audits: [AuditSession]) {
        self.active = audit != nil
        self.audit = audit
        self.audits = audits
    }
}

public struct AuditResponse: Codable, Sendable, Equatable {
    public var audit: AuditSession
    public init(audit: AuditSession) { self.audit = audit }
}

public struct EndResponse: Codable, Sendable, Equatable {
    public var audit: AuditSession
    public var summary: AuditSummary
    public init(summary: AuditSummary) {
        self.audit = summary.audit
        self.summary = summary
    }
}

public struct CountriesResponse: Codable, Sendable, Equatable {
    public var countries: [CountryCount]
    public init(countries: [CountryCount]) { self.countries = countries }
}

/// A page of any list; `key` names the array (`assets`, `audits`, `accessories`, `customers`).
public struct ListResponse<Item: Codable & Sendable>: Codable, Sendable {
    public var items: [Item]
    public var pagination: Pagination
    public var key: String

    public init(_ page: Page<Item>, key: String) {
        self.items = page.items
        self.pagination = page.pagination
        self.key = key
    }

    public var page: Page<Item> { Page(items: items, pagination: pagination) }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(items, forKey: Key(stringValue: key))
        try container.encode(pagination, forKey: Key(stringValue: "pagination"))
    }

    /// The names a list's array goes by, tried first.
    static var knownKeys: [String] { ["assets", "audits", "scans", "accessories", "customers", "items", "data"] }

    /// Decodes the array beside `pagination`: the one with a known name, else the first other
    /// field that holds a list of items (fields a server adds are ignored).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        pagination = try container.decode(Pagination.self, forKey: Key(stringValue: "pagination"))
        let others = container.allKeys.filter { $0.stringValue != "pagination" }
        let known = Self.knownKeys.compactMap { name in others.first { $0.stringValue == name } }
        guard let arrayKey = known.first ?? others.first(where: { (try? container.decode([Item].self, forKey: $0)) != nil }) else {
            throw DecodingError.keyNotFound(Key(stringValue: "items"), .init(codingPath: [], debugDescription: "no list in the answer"))
        }
        key = arrayKey.stringValue
        items = try container.decode([Item].self, forKey: arrayKey)
    }
}

/// `POST /api/v2/assets/import`: all rows or none.
public struct ImportRequest: Codable, Sendable, Equatable {
    public var rows: [ImportRow]
    public init(rows: [ImportRow]) { self.rows = rows }
}

public struct ImportResponse: Codable, Sendable, Equatable {
    public var imported: Int
    public init(imported: Int) { self.imported = imported }
}

/// `DELETE /api/v2/assets/{id}`: the archived asset, or nothing once deleted.
public struct DeleteAssetResponse: Codable, Sendable, Equatable {
    public var asset: Asset?
    public var deleted: Bool
    public init(asset: Asset?) {
        self.asset = asset
        self.deleted = asset == nil
    }
}

/// `GET /health`.
public struct HealthResponse: Codable, Sendable, Equatable {
    public var status: String
    /// "reachable" once the server has reached its database for this answer.
    public var database: String?
    public init(status: String = "ok", database: String? = nil) {
        self.status = status
        self.database = database
    }
}

/// `POST /api/v2/accessories/{id}/checkout` and `/checkin`: quantity defaults to 1.
public struct MovementBody: Codable, Sendable, Equatable {
    public var customerId: Int64
    public var quantity: Int?
    public var condition: String?
    public var notes: String?

    public init(_ movement: AccessoryMovement) {
        customerId = movement.customerId
        quantity = movement.quantity
        condition = movement.condition
        notes = movement.notes
    }

    public var movement: AccessoryMovement {
        AccessoryMovement(customerId: customerId, quantity: quantity ?? 1, condition: condition, notes: notes)
    }
}

/// The accessories an audit expects, with what was counted (`GET /api/v1/audit/{id}/accessories`).
public struct AccessoriesResponse: Codable, Sendable, Equatable {
    public var auditId: AuditID
    public var accessories: [AccessoryTally]
    public init(auditId: AuditID, accessories: [AccessoryTally]) {
        self.auditId = auditId
        self.accessories = accessories
    }
}
