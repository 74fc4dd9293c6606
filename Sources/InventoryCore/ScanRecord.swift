import Foundation

/// One scan of an audit's trail, as it was stored: what was scanned, its outcome, and who,
/// where, when and how.
public struct ScanRecord: Codable, Sendable, Equatable {
    public var scanId: String
    public var identifier: String
    public var status: ScanStatus
    public var reason: UnexpectedReason?
    public var message: String
    public var assetId: Int64?
    public var source: ScanSource
    public var station: String
    public var user: String
    public var scannedAt: Date
    public var recordedAt: Date
    /// Set once the scan is voided: the void's own record. A voided scan stays in the trail and
    /// counts for nothing.
    public var voided: ScanVoid?
    /// The scan has a photo (`GET /api/v1/audit/{id}/scans/{scan_id}/photo`); nil when the
    /// store does not say.
    public var hasPhoto: Bool?
    /// The name of the asset the scan matched, as the asset is named now; nil for an identifier
    /// no asset has (and from a store that does not say).
    public var assetName: String?
    /// The scan reached the server after the audit had ended (`recordedAt` says when) and was
    /// accepted, having been made before the end (`LateScans`).
    public var late: Bool?

    public init(
        scanId: String, identifier: String, status: ScanStatus, reason: UnexpectedReason? = nil, message: String, assetId: Int64? = nil,
        source: ScanSource, station: String, user: String, scannedAt: Date, recordedAt: Date, voided: ScanVoid? = nil, hasPhoto: Bool? = nil,
        assetName: String? = nil, late: Bool? = nil
    ) {
        self.scanId = scanId
        self.identifier = identifier
        self.status = status
        self.reason = reason
        self.message = message
        self.assetId = assetId
        self.source = source
        self.station = station
        self.user = user
        self.scannedAt = scannedAt
        self.recordedAt = recordedAt
        self.voided = voided
        self.hasPhoto = hasPhoto
        self.assetName = assetName
        self.late = late
    }
}

/// Scans of one audit counted by station or by user.
public struct ScanTally: Codable, Sendable, Equatable {
    /// The station or user name.
    public var name: String
    /// Every scan recorded, repeats included.
    public var scans: Int
    /// Expected assets this name found first.
    public var found: Int
    /// Unexpected or unknown identifiers this name recorded first.
    public var unexpected: Int

    public init(name: String, scans: Int, found: Int, unexpected: Int) {
        self.name = name
        self.scans = scans
        self.found = found
        self.unexpected = unexpected
    }
}
