import Foundation
import GRDB
import InventoryCore

extension SQLiteAuditService {
    /// Voids a scan in one write transaction: the void's record, the scan marked voided, its
    /// entry and the audit's numbers corrected (`VoidEffect`). Writes are serialised, so a scan
    /// of the same asset made at the same moment is decided either before the void (and then
    /// counted by it) or after (on the corrected entry).
    public func void(_ request: VoidRequest) async throws -> VoidResult {
        let void = try PreparedVoid(request, defaultStation: defaultStation)
        return try await database.write { db in try Self.storeVoid(db, void) }
    }

    public func audit(ofScan scanID: String) async throws -> (id: AuditID, country: String)? {
        try await database.read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT s.audit_id, a.country FROM scans s JOIN audits a ON a.id = s.audit_id WHERE s.scan_id = ?"),
                arguments: [scanID]
            ).map { (id: $0["audit_id"], country: $0["country"]) }
        }
    }

    static func storeVoid(_ db: Database, _ void: PreparedVoid) throws -> VoidResult {
        guard let scan = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM scans WHERE scan_id = ?"), arguments: [void.scanID]) else {
            throw InventoryError.notFound("scan \(void.scanID)")
        }
        let auditID: AuditID = scan["audit_id"]
        let rowID: Int64 = scan["id"]
        if let named = void.auditID, named != auditID {
            throw InventoryError.notFound("scan \(void.scanID) in audit \(named): it is a scan of another audit")
        }
        if let stored = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT scan_row, answer FROM scan_voids WHERE scan_row = ?
                    UNION ALL SELECT scan_row, answer FROM scan_voids WHERE void_id = ? LIMIT 1
                    """),
            arguments: [rowID, void.voidID])
        {
            guard stored["scan_row"] as Int64 == rowID else { throw InventoryError.duplicate(field: "void_id", value: void.voidID) }
            if let first = VoidResult.kept(stored["answer"]) { return first }
            return try voidAnswer(db, scanRow: rowID, message: "Scan \(void.scanID) was already voided")
        }
        let audit = try AuditRows.fetchSession(db, id: auditID)
        guard audit.isActive else { throw InventoryError.auditEnded(auditID) }
        let effect = try correctEntry(db, scan: scan, auditID: auditID)
        try db.cachedStatement(sql: "UPDATE scans SET voided = 1 WHERE id = ?").execute(arguments: [rowID])
        try db.cachedStatement(
            sql: """
                INSERT INTO scan_voids (void_id, scan_row, audit_id, reason, station, user, voided_at, recorded_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [void.voidID, rowID, auditID, void.reason, void.station, void.user, void.voidedAt, Date()])
        try db.cachedStatement(sql: "UPDATE audits SET scanned_count = scanned_count + ?, unexpected_count = unexpected_count + ? WHERE id = ?")
            .execute(arguments: [effect.scannedDelta, effect.unexpectedDelta, auditID])
        // The audit's numbers after the void, with the revision its trigger gave them.
        let progress = try AuditRows.fetchSession(db, id: auditID).progress
        let answer = try voidAnswer(db, scanRow: rowID, message: nil, effect: effect, progress: progress)
        try db.cachedStatement(sql: "UPDATE scan_voids SET answer = ? WHERE scan_row = ?").execute(arguments: [answer.kept(), rowID])
        return answer
    }

    /// Takes the voided scan off its entry, before the scan is marked: the entry's next scan
    /// is the earliest other scan of it that is not voided.
    private static func correctEntry(_ db: Database, scan: Row, auditID: AuditID) throws -> VoidEffect {
        let rowID: Int64 = scan["id"]
        let status = ScanStatus(rawValue: scan["status"]) ?? .unknown
        if let key = scan["entry_key"] as String? {
            guard
                let first = try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT first_scan_id FROM audit_unexpected WHERE audit_id = ? AND key = ?"), arguments: [auditID, key])
            else { return .repeatRemoved }
            let next = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT min(id) FROM scans WHERE audit_id = ? AND entry_key = ? AND NOT voided AND id <> ?"),
                arguments: [auditID, key, rowID])
            let effect = VoidEffect.of(expected: false, wasFirst: first == rowID, laterStands: next != nil)
            switch effect {
            case .unexpectedUndone:
                try db.cachedStatement(sql: "DELETE FROM audit_unexpected WHERE audit_id = ? AND key = ?").execute(arguments: [auditID, key])
            case .firstPassedOn:
                try db.cachedStatement(
                    sql: "UPDATE audit_unexpected SET first_scan_id = ?, scan_count = scan_count - 1 WHERE audit_id = ? AND key = ?"
                ).execute(arguments: [next, auditID, key])
            default:
                try db.cachedStatement(sql: "UPDATE audit_unexpected SET scan_count = max(scan_count - 1, 1) WHERE audit_id = ? AND key = ?").execute(
                    arguments: [auditID, key])
            }
            return effect
        }
        guard status == .foundExpected || status == .alreadyScanned, let assetID = scan["asset_id"] as Int64? else { return .repeatRemoved }
        let first = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT first_scan_id FROM audit_expected WHERE audit_id = ? AND asset_id = ?"), arguments: [auditID, assetID])
        let next = try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT min(id) FROM scans WHERE audit_id = ? AND asset_id = ? AND entry_key IS NULL
                        AND status IN ('found_expected', 'already_scanned') AND NOT voided AND id <> ?
                    """), arguments: [auditID, assetID, rowID])
        let effect = VoidEffect.of(expected: true, wasFirst: first == rowID, laterStands: next != nil)
        let sql =
            switch effect {
            case .foundUndone: "UPDATE audit_expected SET first_scan_id = NULL, scan_count = 0 WHERE audit_id = ? AND asset_id = ?"
            case .firstPassedOn: "UPDATE audit_expected SET first_scan_id = ?, scan_count = scan_count - 1 WHERE audit_id = ? AND asset_id = ?"
            default: "UPDATE audit_expected SET scan_count = max(scan_count - 1, 0) WHERE audit_id = ? AND asset_id = ?"
            }
        let arguments: StatementArguments = effect == .firstPassedOn ? [next, auditID, assetID] : [auditID, assetID]
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
        return effect
    }

    /// The answer for a stored void: the scan with its void, and the audit's numbers now.
    private static func voidAnswer(
        _ db: Database, scanRow: Int64, message: String?, effect: VoidEffect? = nil, progress known: AuditProgress? = nil
    ) throws -> VoidResult {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: trailSQL + " WHERE s.id = ?"), arguments: [scanRow]) else {
            throw InventoryError.notFound("scan row \(scanRow)")
        }
        let record = try scanRecord(row)
        guard let void = record.voided else { throw InventoryError.storage("the void of scan \(record.scanId) was not stored") }
        let progress = try known ?? AuditRows.fetchSession(db, id: void.auditId).progress
        return VoidResult(void: void, scan: record, progress: progress, message: message ?? effect?.message(scan: record) ?? "", effect: effect)
    }
}
