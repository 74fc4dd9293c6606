import Foundation

/// The camera's frame of a scan, kept as evidence: a JPEG of at most `maxBytes`. A camera
/// station takes one for every scan whose outcome a supervisor may question (unexpected,
/// unknown, misplaced) and attaches it to the scan in the trail.
public struct ScanPhoto: Sendable, Equatable {
    /// 200 KB.
    public static let maxBytes = 200 * 1024
    public static let contentType = "image/jpeg"

    public var scanId: String
    public var jpeg: Data
    /// When the frame was captured.
    public var takenAt: Date
    /// Who attaches it, when a server checks that: a photo goes only to the attaching user's
    /// own scan (nil: not checked, as on a station's own copy).
    public var attachedBy: String?

    /// Checks the photo: a JPEG (it starts with a JPEG's start-of-image marker and ends with
    /// its end-of-image marker) of at most `maxBytes`, for a valid scan id.
    public init(scanId: String, jpeg: Data, takenAt: Date) throws {
        do {
            self.scanId = try Identifier.normalize(scanId, field: "scan_id")
        } catch {
            throw InventoryError.invalid(error)
        }
        if let problem = Self.problem(jpeg) { throw InventoryError.invalid(ValidationError(field: "photo", message: problem)) }
        self.jpeg = jpeg
        self.takenAt = takenAt
    }

    /// What is wrong with `bytes` as a scan's photo, or nil.
    public static func problem(_ bytes: Data) -> String? {
        if bytes.count > maxBytes {
            return "is \(bytes.count) bytes; a scan's photo is a JPEG of at most \(maxBytes) bytes (200 KB)"
        }
        guard bytes.count >= 4, bytes.prefix(3).elementsEqual([0xFF, 0xD8, 0xFF]) else {
            return "is not a JPEG image (it does not start with a JPEG's FF D8 FF marker)"
        }
        // A JPEG ends with FF D9; some encoders pad after it, so look near the end.
        let tail = bytes.suffix(64)
        guard zip(tail, tail.dropFirst()).contains(where: { $0 == 0xFF && $1 == 0xD9 }) else {
            return "is a cut-off JPEG (it has no end-of-image marker)"
        }
        return nil
    }

    /// A photo that arrives from outside (the API): checked as `init` does, then by its whole
    /// structure (`JPEGStructure`), so a file that only starts and ends like a JPEG is refused.
    /// Photos read back from a store are not walked again.
    public static func received(scanId: String, jpeg: Data, takenAt: Date) throws -> ScanPhoto {
        let photo = try ScanPhoto(scanId: scanId, jpeg: jpeg, takenAt: takenAt)
        if let problem = JPEGStructure.problem(jpeg) { throw InventoryError.invalid(ValidationError(field: "photo", message: problem)) }
        return photo
    }

    /// A server attaches a photo only to the attaching user's own scan.
    public static func checkOwner(scanID: String, scannedBy: String, attachedBy: String?) throws {
        guard let attachedBy, attachedBy != scannedBy else { return }
        throw InventoryError.forbidden("scan \(scanID) was made by another user; a photo goes only to your own scan")
    }

    /// Whether a scan with this outcome keeps its camera frame.
    public static func isEvidence(_ result: ScanResult) -> Bool {
        switch result.status {
        case .unexpected, .unknown: true
        case .foundExpected, .alreadyScanned: result.misplaced == true
        case .pending, .accessoryCounted: false
        }
    }
}

/// How many photos are stored and their bytes (for `audit photos` and the figures).
public struct PhotoStorage: Codable, Sendable, Equatable {
    public var photos: Int
    public var bytes: Int64

    public init(photos: Int, bytes: Int64) {
        self.photos = photos
        self.bytes = bytes
    }
}

/// Where a store keeps scans' photos. The SQLite and PostgreSQL audit services keep them in
/// their own table beside the scans; a connected station queues them for the server.
public protocol ScanPhotoService: Sendable {
    /// Attaches a photo to a stored scan (of `auditID`, when given). The first photo of a scan
    /// stands: attaching again, as a resend does, changes nothing.
    func attachPhoto(_ photo: ScanPhoto, auditID: AuditID?) async throws
    /// The photo of a scan (of `auditID`, when given), or nil when it has none.
    func photo(scanID: String, auditID: AuditID?) async throws -> ScanPhoto?
    /// Deletes photos taken before `date` (the retention); returns how many.
    func prunePhotos(takenBefore date: Date) async throws -> Int
    /// The photos of one audit, or of all.
    func photoStorage(auditID: AuditID?) async throws -> PhotoStorage
    /// For each of `identifiers` scanned in the audit with a photo kept here, the scan id of
    /// its first such scan (the lists show it beside the entry).
    func photoScans(auditID: AuditID, identifiers: [String]) async throws -> [String: String]
}

extension ScanPhotoService {
    /// A store that cannot look photos up by identifier has none to show.
    public func photoScans(auditID: AuditID, identifiers: [String]) async throws -> [String: String] { [:] }
}

/// How long photos are kept.
public struct PhotoRetention: Codable, Sendable, Equatable {
    /// Days a photo is kept after it was taken; 0 keeps them for ever.
    public var days: Int

    public init(days: Int = 365) { self.days = days }

    /// The oldest time a kept photo may have, or nil when photos are kept for ever.
    public func cutoff(now: Date = Date()) -> Date? {
        days > 0 ? now.addingTimeInterval(-Double(days) * 86_400) : nil
    }
}
