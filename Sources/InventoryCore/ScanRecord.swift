import Foundation

/// One scan of an audit's trail, as it was stored: what was scanned, its outcome, and who,
/// where, when and how. The stores read it from their rows by its fields' names (as they read
/// assets); a station makes its own with `init(unanswered:status:message:voided:)`.
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
}

extension ScanRecord {
    /// A station's own record of a scan the server has not answered: as its request says,
    /// recorded when it was made.
    public init(unanswered request: ScanRequest, status: ScanStatus, message: String, voided: ScanVoid?) {
        let at = request.scannedAt ?? Date()
        self.init(
            scanId: request.scanId ?? "", identifier: request.identifier, status: status, message: message,
            source: request.source ?? .manual, station: request.deviceName ?? "", user: request.user ?? "", scannedAt: at,
            recordedAt: at, voided: voided)
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
