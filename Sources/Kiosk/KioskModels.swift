import AuditClient
import ConnectedStation
import Foundation
import InventoryCore
import Station

/// One scan as the page shows it (docs/kiosk-api.md, "ScanEvent").
struct KioskScan: Encodable, Sendable, Equatable {
    /// A stored scan, a refused one, or a location label that moved the station (never stored).
    enum Kind: String, Encodable { case result, rejected, location }
    var kind: Kind
    var scanId: String?
    var identifier: String?
    var status: ScanStatus?
    var message: String
    var asset: AuditAsset?
    var reason: UnexpectedReason?
    var firstScan: FirstScan?
    var progress: AuditProgress?
    var auditId: AuditID?
    var error: ErrorCode?
    var source: ScanSource
    var user: String
    var station: String
    var at: Date
    /// A connected station decided it locally; it waits in the outbox for the server.
    var pending: Bool?
    /// Found at a location other than the registered one (still counted as found).
    var misplaced: Bool?
    var registeredLocation: String?
    var foundLocation: String?
    /// The scan was undone (its void is in the trail); it counts for nothing.
    var voided: Bool?
    /// An asset whose tag or serial differs from the scanned text only in case ("Caps Lock?").
    var didYouMean: String?
    /// For a location label: where the station stands now.
    var location: String?
    /// The camera's photo of the scan is kept (`GET /api/photo`).
    var hasPhoto: Bool?
    /// The matched asset's name when `asset` is not known (a scan read back from the trail).
    var assetName: String?
    /// For `accessory_counted`: the accessory with its counts after the scan (the page asks
    /// "How many?").
    var accessory: AccessoryTally?

    init(_ result: ScanResult, origin: ScanOrigin, pending: Bool) {
        kind = .result
        scanId = result.scanId
        identifier = result.identifier
        status = result.status
        message = result.message
        asset = result.asset
        reason = result.reason
        firstScan = result.firstScan
        progress = result.progress
        auditId = result.auditId
        source = origin.source
        user = origin.user
        station = origin.station
        at = origin.at
        self.pending = pending ? true : nil
        misplaced = result.misplaced
        registeredLocation = result.registeredLocation
        foundLocation = result.foundLocation
        accessory = result.accessory
    }

    /// A location label the station took: it stands at `location` from now on.
    init(location: String, label: String, scanID: String?, origin: ScanOrigin) {
        kind = .location
        scanId = scanID
        identifier = label
        message = "Now at \(location)"
        self.location = location
        source = origin.source
        user = origin.user
        station = origin.station
        at = origin.at
    }

    /// A scan of the audit's trail (the store's own record, from this station or another).
    init(record: ScanRecord, auditID: AuditID) {
        kind = .result
        scanId = record.scanId
        identifier = record.identifier
        status = record.status
        message = record.message
        reason = record.reason
        auditId = auditID
        source = record.source
        user = record.user
        station = record.station
        at = record.scannedAt
        voided = record.voided == nil ? nil : true
        hasPhoto = record.hasPhoto == true ? true : nil
        assetName = record.assetName
    }

    /// A scan of this station's outbox (connected): what it showed, the server's answer when one
    /// came, or the server's refusal.
    init(own scan: OwnScan, auditID: AuditID) {
        scanId = scan.scanID
        identifier = scan.identifier
        if case .refused(let reason) = scan.state {
            kind = .rejected
            error = .refusedByServer
            message = "The server refused this scan: \(reason)"
        } else {
            kind = .result
            status = scan.status
            message = scan.message
            pending = scan.state == .pending ? true : nil
            assetName = scan.asset?.name
            foundLocation = scan.location
        }
        auditId = auditID
        source = scan.source
        user = scan.user
        station = scan.station
        at = scan.scannedAt
    }

    init(_ refusal: ScanRefusal) {
        kind = .rejected
        scanId = refusal.scanID
        identifier = refusal.identifier
        error = refusal.code
        message = refusal.message
        source = refusal.origin.source
        user = refusal.origin.user
        station = refusal.origin.station
        at = refusal.origin.at
    }

    enum CodingKeys: String, CodingKey {
        case kind, scanId, identifier, status, message, asset, reason, firstScan, progress, auditId, error, source, user, station, at, pending
        case misplaced, registeredLocation, foundLocation, voided, didYouMean, location, hasPhoto, assetName, accessory
    }

    /// Every key is written, null when absent, so the page never meets a missing field.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(scanId, forKey: .scanId)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(message, forKey: .message)
        try container.encode(source, forKey: .source)
        try container.encode(user, forKey: .user)
        try container.encode(station, forKey: .station)
        try container.encode(at, forKey: .at)
        switch kind {
        case .result:
            try container.encode(status, forKey: .status)
            try container.encode(asset, forKey: .asset)
            try container.encode(reason, forKey: .reason)
            try container.encode(firstScan, forKey: .firstScan)
            try container.encode(progress, forKey: .progress)
            try container.encode(auditId, forKey: .auditId)
            try container.encode(pending ?? false, forKey: .pending)
            try container.encode(misplaced ?? false, forKey: .misplaced)
            try container.encode(registeredLocation, forKey: .registeredLocation)
            try container.encode(foundLocation, forKey: .foundLocation)
            try container.encode(voided ?? false, forKey: .voided)
            try container.encode(didYouMean, forKey: .didYouMean)
            try container.encode(hasPhoto ?? false, forKey: .hasPhoto)
            try container.encode(assetName ?? asset?.name, forKey: .assetName)
            try container.encode(accessory, forKey: .accessory)
        case .rejected:
            try container.encode(error, forKey: .error)
            // A scan counted here that the server then refused: the audit's numbers without it.
            if progress != nil {
                try container.encode(progress, forKey: .progress)
                try container.encode(auditId, forKey: .auditId)
            }
        case .location:
            try container.encode(location, forKey: .location)
        }
    }
}

/// The camera as the page shows it.
struct CameraState: Encodable, Sendable, Equatable {
    enum Phase: String, Encodable { case none, starting, ready, lost }
    var state: Phase
    var message: String
    @Nullable var device: String? = nil
    @Nullable var width: Int? = nil
    @Nullable var height: Int? = nil
}

/// Standalone, or how the link to the server stands.
struct ConnectionState: Encodable, Sendable, Equatable {
    enum Phase: String, Encodable { case standalone, online, offline }
    var state: Phase
    @Nullable var server: String? = nil
    var pendingScans: Int = 0
    /// Of the audit shown: its scans waiting for the server, and those the server refused.
    var auditPendingScans: Int = 0
    var auditRefusedScans: Int = 0
    @Nullable var lastSyncAt: Date? = nil
    @Nullable var lastError: String? = nil
}

/// `GET /api/state` and the `state` event.
struct KioskState: Encodable, Sendable {
    var station: String
    var mode: String
    /// Who is scanning; nil until someone says (the page asks).
    @Nullable var user: String? = nil
    var pinRequired: Bool
    var connection: ConnectionState
    var camera: CameraState
    @Nullable var audit: AuditSession? = nil
    /// The audit shown ended elsewhere (another station, the back office, the API), not here.
    var endedElsewhere: Bool
    var countries: [CountryCount]
    @Nullable var countriesError: String? = nil
    var recent: [KioskScan]
    /// Where the station stands (nil: not said), and the locations of the audit's country.
    @Nullable var location: String? = nil
    var locations: [LocationCount]
}

/// What a client that has not given the PIN may see.
struct LockedState: Encodable, Sendable {
    var station: String
    var pinRequired = true
}

struct ProgressEvent: Encodable, Sendable {
    var auditId: AuditID
    var progress: AuditProgress
}

struct AuditAnswer: Encodable, Sendable {
    @Nullable var audit: AuditSession? = nil
}

struct SummaryAnswer: Encodable, Sendable { var summary: AuditSummary }
struct UserAnswer: Encodable, Sendable { var user: String }

struct ListAnswer: Encodable, Sendable {
    var assets: [ListEntry]
    var pagination: Pagination
}

/// An entry of a list, with the scan whose camera photo is kept for it (unexpected entries).
struct ListEntry: Encodable, Sendable {
    var asset: AuditAsset
    var photoScanId: String?

    func encode(to encoder: any Encoder) throws {
        try asset.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(photoScanId, forKey: .photoScanId)
    }
    enum CodingKeys: String, CodingKey { case photoScanId }
}

/// A camera photo was kept for a scan shown on the pages (the `photo` event).
/// A command label the camera read (`undo`): the pages act on it as on the same label scanned
/// with a gun.
struct CommandEvent: Encodable, Sendable {
    var command: String
}

struct PhotoEvent: Encodable, Sendable {
    var scanId: String
    var auditId: AuditID
}

// Request bodies.
struct ScanBody: Decodable, Sendable {
    var identifier: String
    var scanId: String?
    /// When the page took the scan (its clock); a scan the page held while the kiosk could not
    /// answer keeps the time it was made.
    var scannedAt: Date?
}
struct StartBody: Decodable, Sendable {
    var country: String
    var locations: [String]?
}
/// Several typed scans in the order they were typed; recorded one after the other.
struct ScansBody: Decodable, Sendable {
    static let limit = 50
    var scans: [ScanBody]
}
struct ScansAnswer: Encodable, Sendable { var results: [KioskScan] }
struct LocationBody: Decodable, Sendable { var location: String? }
struct LocationAnswer: Encodable, Sendable {
    @Nullable var location: String? = nil
}
struct LocationsAnswer: Encodable, Sendable { var locations: [LocationCount] }
struct UndoBody: Decodable, Sendable { var scanId: String }
/// `POST /api/count`: how many of the accessory `tag` stand where the station stands.
struct CountBody: Decodable, Sendable {
    var tag: String
    var quantity: Int
}
/// A scan undone: pushed to every page as the `void` event, and the answer to `POST /api/undo`.
struct UndoAnswer: Encodable, Sendable {
    var scanId: String
    var auditId: AuditID
    var identifier: String
    var message: String
    var progress: AuditProgress
}
struct JoinBody: Decodable, Sendable { var auditId: String }
struct EndBody: Decodable, Sendable {
    var auditId: String?
    /// End even though the server says other stations may still hold scans of the audit.
    var force: Bool?
}
struct UserBody: Decodable, Sendable { var name: String }
struct PinBody: Decodable, Sendable { var pin: String }
