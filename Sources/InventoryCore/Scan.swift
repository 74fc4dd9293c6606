import Foundation

public enum ScanStatus: String, Codable, Sendable, CaseIterable {
    case foundExpected = "found_expected"
    case alreadyScanned = "already_scanned"
    case unexpected
    case unknown
    /// Shown by a connected station for an identifier outside its local copy (not expected,
    /// not a recorded unexpected entry) until the server decides it; a server never answers it.
    case pending
    /// The tag of an accessory the audit expects: one more of it counted at the station's
    /// location (`ScanResult.accessory`). It changes none of the audit's asset numbers. A client
    /// that does not know it reads it as `pending` (the lenient decoding of any unknown status).
    case accessoryCounted = "accessory_counted"

    /// True for outcomes a person at the kiosk should look at.
    public var isProblem: Bool { self != .foundExpected && self != .accessoryCounted }
}

/// A scan as a station submits it. `scanId` makes it idempotent: the same id twice is one scan.
public struct ScanRequest: Codable, Sendable, Equatable {
    public var identifier: String
    public var auditId: AuditID?
    public var scanId: String?
    public var source: ScanSource?
    public var scannedAt: Date?
    /// The station name.
    public var deviceName: String?
    /// The user; a server fills it from the token and ignores what the body says.
    public var user: String?
    /// Where the station stands (its current location), when it knows: an expected asset
    /// registered elsewhere is found, and misplaced.
    public var location: String?

    public init(
        identifier: String, auditId: AuditID? = nil, scanId: String? = nil, source: ScanSource? = nil, scannedAt: Date? = nil,
        deviceName: String? = nil, user: String? = nil, location: String? = nil
    ) {
        self.identifier = identifier
        self.auditId = auditId
        self.scanId = scanId
        self.source = source
        self.scannedAt = scannedAt
        self.deviceName = deviceName
        self.user = user
        self.location = location
    }
}

/// The outcome of one scan, returned only once the scan is stored.
public struct ScanResult: Codable, Sendable, Equatable {
    public var identifier: String
    public var status: ScanStatus
    public var message: String
    public var asset: AuditAsset?
    public var reason: UnexpectedReason?
    /// For a repeat: who scanned it first, where and when.
    public var firstScan: FirstScan?
    public var progress: AuditProgress
    public var auditId: AuditID
    public var scanId: String
    /// A first find at a location other than the asset's registered one.
    public var misplaced: Bool?
    public var registeredLocation: String?
    public var foundLocation: String?
    /// The asset is registered as `MISSING`: the audit whose reconciliation marked it so.
    public var missingSinceAudit: AuditID?
    /// The scan reached the server after the audit had ended and was accepted, having been
    /// made before the end (`LateScans`); absent otherwise.
    public var late: Bool?
    /// For `accessory_counted`: the accessory with its counts after this scan; absent otherwise.
    public var accessory: AccessoryTally?

    public init(
        identifier: String, status: ScanStatus, message: String, asset: AuditAsset?, reason: UnexpectedReason?,
        firstScan: FirstScan?, progress: AuditProgress, auditId: AuditID, scanId: String, foundLocation: String? = nil,
        missingSinceAudit: AuditID? = nil
    ) {
        // A first find away from the asset's registered location.
        let misplaced = status == .foundExpected && asset.map { AuditRules.isMisplaced(registered: $0.location, found: foundLocation) } == true
        self.identifier = identifier
        self.status = status
        self.message = message
        self.asset = asset
        self.reason = reason
        self.firstScan = firstScan
        self.progress = progress
        self.auditId = auditId
        self.scanId = scanId
        self.foundLocation = foundLocation
        self.missingSinceAudit = missingSinceAudit
        self.misplaced = misplaced ? true : nil
        self.registeredLocation = misplaced ? asset?.location : nil
    }
}
