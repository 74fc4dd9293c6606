import Foundation

/// A request to void (undo) one scan of a running audit. `voidId` makes it idempotent: a
/// station's outbox may send the same void twice, and the second answers as the first did.
///
/// It is also the body of `POST /api/v1/audit/scans/{scan_id}/void`, which carries every field
/// but two (`CodingKeys`), each optional, so no body at all voids the scan with no reason given:
/// the scan is the path's, and the user is the token's.
public struct VoidRequest: Codable, Sendable, Equatable {
    /// The scan to void (on the wire, the path's `{scan_id}`).
    public var scanId: String = ""
    /// When given, the scan must belong to this audit.
    public var auditId: AuditID?
    /// Why, in a person's words ("scanned the wrong shelf").
    public var reason: String?
    public var voidId: String?
    public var voidedAt: Date?
    /// The station name.
    public var deviceName: String?
    /// The user; a server fills it from the token (on the wire, never in the body).
    public var user: String?

    public init(
        scanId: String, auditId: AuditID? = nil, reason: String? = nil, voidId: String? = nil, voidedAt: Date? = nil, deviceName: String? = nil,
        user: String? = nil
    ) {
        self.scanId = scanId
        self.auditId = auditId
        self.reason = reason
        self.voidId = voidId
        self.voidedAt = voidedAt
        self.deviceName = deviceName
        self.user = user
    }

    /// The body's fields: not the scan (the path's) nor the user (the token's).
    enum CodingKeys: String, CodingKey { case auditId, reason, voidId, voidedAt, deviceName }
}

/// A void as the trail keeps it: its own record, naming the scan it undid, who, where, when and why.
public struct ScanVoid: Codable, Sendable, Equatable {
    public var voidId: String
    public var scanId: String
    public var auditId: AuditID
    public var reason: String?
    public var station: String
    public var user: String
    public var voidedAt: Date
    public var recordedAt: Date

    public init(
        voidId: String, scanId: String, auditId: AuditID, reason: String? = nil, station: String, user: String, voidedAt: Date, recordedAt: Date
    ) {
        self.voidId = voidId
        self.scanId = scanId
        self.auditId = auditId
        self.reason = reason
        self.station = station
        self.user = user
        self.voidedAt = voidedAt
        self.recordedAt = recordedAt
    }
}

/// A void's fields after their checks, ready to store: the same checks for every back end.
public struct PreparedVoid: Sendable {
    public var scanID: String
    public var auditID: AuditID?
    public var voidID: String
    public var reason: String?
    public var station: String
    public var user: String
    public var voidedAt: Date

    public init(_ request: VoidRequest, defaultStation: String, now: Date = Date()) throws {
        do {
            scanID = try Identifier.normalize(request.scanId, field: "scan_id")
            voidID = try request.voidId.map { try Identifier.normalize($0, field: "void_id") } ?? UUID().uuidString.lowercased()
            reason = try FreeText.optional(request.reason, field: "reason")
            station = try request.deviceName.flatMap { try FreeText.normalize($0, field: "device_name") } ?? defaultStation
            user = try request.user.flatMap { try FreeText.normalize($0, field: "user") } ?? "unknown"
            voidedAt = try PreparedScan.scanTime(request.voidedAt, now: now)
        } catch let error as ValidationError {
            throw InventoryError.invalid(error)
        }
        auditID = request.auditId.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// The answer to a void, once it is stored: the void, the scan it undid, and the audit's numbers.
public struct VoidResult: Codable, Sendable, Equatable {
    public var void: ScanVoid
    /// The voided scan as the trail shows it now (with `voided` set).
    public var scan: ScanRecord
    public var progress: AuditProgress
    public var message: String
    /// What the void did to the scan's entry (nil when answering a void stored before).
    public var effect: VoidEffect?

    public init(void: ScanVoid, scan: ScanRecord, progress: AuditProgress, message: String, effect: VoidEffect?) {
        self.void = void
        self.scan = scan
        self.progress = progress
        self.message = message
        self.effect = effect
    }

    /// The answer as a store keeps it beside the void, so that the same void sent again (its
    /// `void_id`, or any void of the same scan) answers exactly as the first did.
    public func kept() -> String? {
        (try? JSONEncoder.auditStation().encode(self)).flatMap { String(data: $0, encoding: .utf8) }
    }

    /// The answer a store kept (nil for a void stored before answers were kept).
    public static func kept(_ text: String?) -> VoidResult? {
        text.flatMap { try? JSONDecoder.auditStation().decode(VoidResult.self, from: Data($0.utf8)) }
    }
}

/// What a void does to the entry of the scan it undoes, and so to the audit's numbers. Every
/// store follows it: the scan is kept in the trail, marked voided, and the audit counts as if
/// it had never been made.
public enum VoidEffect: String, Codable, Equatable, Sendable {
    /// The scan was a repeat (not its entry's first): one scan fewer on the entry, no number changes.
    case repeatRemoved = "repeat_removed"
    /// The scan was its entry's first, and a later scan of the same entry stands: that scan is
    /// the entry's first now, and no number changes.
    case firstPassedOn = "first_passed_on"
    /// The only scan of an expected asset: it is missing again (scanned − 1).
    case foundUndone = "found_undone"
    /// The only scan of an unexpected entry: the entry goes (unexpected − 1).
    case unexpectedUndone = "unexpected_undone"

    /// Decides the effect from what the store finds.
    /// - Parameters:
    ///   - expected: the scan was of an expected asset (found or already scanned).
    ///   - wasFirst: it is its entry's first scan.
    ///   - laterStands: another scan of the same entry, not voided, remains.
    public static func of(expected: Bool, wasFirst: Bool, laterStands: Bool) -> VoidEffect {
        guard wasFirst else { return .repeatRemoved }
        if laterStands { return .firstPassedOn }
        return expected ? .foundUndone : .unexpectedUndone
    }

    public var scannedDelta: Int { self == .foundUndone ? -1 : 0 }
    public var unexpectedDelta: Int { self == .unexpectedUndone ? -1 : 0 }

    /// The line a person reads after the void.
    public func message(scan: ScanRecord) -> String {
        let what = "'\(scan.identifier)' (scanned by \(scan.user) at \(scan.station), \(ISOTime.string(scan.scannedAt)))"
        switch self {
        case .repeatRemoved: return "Voided a repeat scan of \(what); no count changed"
        case .firstPassedOn: return "Voided the first scan of \(what); a later scan of it still counts"
        case .foundUndone: return "Voided the scan of \(what); it is missing again"
        case .unexpectedUndone: return "Voided the scan of \(what); it is no longer listed as unexpected"
        }
    }
}
