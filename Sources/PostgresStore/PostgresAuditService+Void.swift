import Foundation
import InventoryCore
import PostgresNIO

extension PostgresAuditService {
    public func audit(ofScan scanID: String) async throws -> (id: AuditID, country: String)? {
        try await database.read { c in
            guard
                let row = try await c.row(
                    "SELECT s.audit_id, a.country FROM scans s JOIN audits a ON a.id = s.audit_id WHERE s.scan_id = \(scanID)")
            else { return nil }
            return (id: try row.get("audit_id"), country: try row.get("country"))
        }
    }

    /// Voids a scan in one transaction that first locks the audit's row, as every scan's write
    /// does, so voids and scans of one audit take turns. A scan decided before the void on the
    /// entry the void changes finds its condition failed at its write and is decided again
    /// (see `store`): a repeat decided on a first find the void took away becomes the first find.
    public func void(_ request: VoidRequest) async throws -> VoidResult {
        let void = try PreparedVoid(request, defaultStation: defaultStation)
        return try await database.transaction { c in
            guard let scan = try await c.row("SELECT * FROM scans WHERE scan_id = \(void.scanID)") else {
                throw InventoryError.notFound("scan \(void.scanID)")
            }
            let auditID: AuditID = try scan.get("audit_id")
            let rowID: Int64 = try scan.get("id")
            if let named = void.auditID, named != auditID {
                throw InventoryError.notFound("scan \(void.scanID) in audit \(named): it is a scan of another audit")
            }
            guard let audit = try await c.row("SELECT ended_at FROM audits WHERE id = \(auditID) FOR NO KEY UPDATE") else {
                throw InventoryError.notFound("audit \(auditID)")
            }
            if let stored = try await c.row(
                "SELECT scan_row, answer FROM scan_voids WHERE void_id = \(void.voidID) OR scan_row = \(rowID) ORDER BY id LIMIT 1")
            {
                guard try stored.get("scan_row", as: Int64.self) == rowID else {
                    throw InventoryError.duplicate(field: "void_id", value: void.voidID)
                }
                if let first = VoidResult.kept(try stored.get("answer", as: String?.self)) { return first }
                return try await Self.voidAnswer(c, scanRow: rowID, message: "Scan \(void.scanID) was already voided")
            }
            guard try audit.get("ended_at", as: Date?.self) == nil else { throw InventoryError.auditEnded(auditID) }
            let effect = try await Self.correctEntry(c, scan: scan, auditID: auditID)
            try await c.run("UPDATE scans SET voided = true WHERE id = \(rowID)")
            try await c.run(
                """
                INSERT INTO scan_voids (void_id, scan_row, audit_id, reason, station, user_name, voided_at, recorded_at)
                VALUES (\(void.voidID), \(rowID), \(auditID), \(void.reason), \(void.station), \(void.user), \(void.voidedAt), \(Date()))
                """)
            try await c.run(
                """
                UPDATE audits SET scanned_count = scanned_count + \(effect.scannedDelta),
                    unexpected_count = unexpected_count + \(effect.unexpectedDelta) WHERE id = \(auditID)
                """)
            let answer = try await Self.voidAnswer(c, scanRow: rowID, message: nil, effect: effect)
            try await c.run("UPDATE scan_voids SET answer = \(answer.kept()) WHERE scan_row = \(rowID)")
            return answer
        }
    }

    /// Takes the voided scan off its entry: the entry's next scan is the earliest other scan of
    /// it that is not voided (`SQLiteAuditService.correctEntry` is the same on SQLite).
    private static func correctEntry(_ c: PostgresConnection, scan: PostgresRandomAccessRow, auditID: AuditID) async throws -> VoidEffect {
        let rowID: Int64 = try scan.get("id")
        let status = ScanStatus(rawValue: try scan.get("status")) ?? .unknown
        if let key = try scan.get("entry_key", as: String?.self) {
            guard let entry = try await c.row("SELECT first_scan_id FROM audit_unexpected WHERE audit_id = \(auditID) AND key = \(key)")
            else { return .repeatRemoved }
            let next = try await c.row(
                """
                SELECT min(id) AS next FROM scans WHERE audit_id = \(auditID) AND entry_key = \(key) AND NOT voided AND id <> \(rowID)
                """)?.get("next", as: Int64?.self)
            let first: Int64 = try entry.get("first_scan_id")
            let effect = VoidEffect.of(expected: false, wasFirst: first == rowID, laterStands: next != nil)
            switch effect {
            case .unexpectedUndone:
                try await c.run("DELETE FROM audit_unexpected WHERE audit_id = \(auditID) AND key = \(key)")
            case .firstPassedOn:
                try await c.run(
                    "UPDATE audit_unexpected SET first_scan_id = \(next), scan_count = scan_count - 1 WHERE audit_id = \(auditID) AND key = \(key)")
            default:
                try await c.run(
                    "UPDATE audit_unexpected SET scan_count = greatest(scan_count - 1, 1) WHERE audit_id = \(auditID) AND key = \(key)")
            }
            return effect
        }
        guard status == .foundExpected || status == .alreadyScanned, let assetID = try scan.get("asset_id", as: Int64?.self) else {
            return .repeatRemoved
        }
        let first = try await c.row("SELECT first_scan_id FROM audit_expected WHERE audit_id = \(auditID) AND asset_id = \(assetID)")?
            .get("first_scan_id", as: Int64?.self)
        let next = try await c.row(
            """
            SELECT min(id) AS next FROM scans WHERE audit_id = \(auditID) AND asset_id = \(assetID) AND entry_key IS NULL
                AND status IN ('found_expected', 'already_scanned') AND NOT voided AND id <> \(rowID)
            """)?.get("next", as: Int64?.self)
        let effect = VoidEffect.of(expected: true, wasFirst: first == rowID, laterStands: next != nil)
        switch effect {
        case .foundUndone:
            try await c.run("UPDATE audit_expected SET first_scan_id = NULL, scan_count = 0 WHERE audit_id = \(auditID) AND asset_id = \(assetID)")
        case .firstPassedOn:
            try await c.run(
                "UPDATE audit_expected SET first_scan_id = \(next), scan_count = scan_count - 1 WHERE audit_id = \(auditID) AND asset_id = \(assetID)"
            )
        default:
            try await c.run(
                "UPDATE audit_expected SET scan_count = greatest(scan_count - 1, 0) WHERE audit_id = \(auditID) AND asset_id = \(assetID)")
        }
        return effect
    }

    private static func voidAnswer(_ c: PostgresConnection, scanRow: Int64, message: String?, effect: VoidEffect? = nil) async throws -> VoidResult {
        guard let row = try await c.row(PostgresQuery(unsafeSQL: trailSQL + " WHERE s.id = $1", binds: Self.binds(scanRow))) else {
            throw InventoryError.notFound("scan row \(scanRow)")
        }
        let record = try scanRecord(row)
        guard let void = record.voided else { throw InventoryError.storage("the void of scan \(record.scanId) was not stored") }
        let progress = try await PGRows.fetchSession(c, id: void.auditId).progress
        return VoidResult(void: void, scan: record, progress: progress, message: message ?? effect?.message(scan: record) ?? "", effect: effect)
    }

    private static func binds(_ value: Int64) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(value)
        return binds
    }
}
