import Foundation
import GRDB
import InventoryCore

extension SQLiteAuditService {
    /// The snapshot of an audit, read in one transaction so its parts agree.
    public func snapshot(auditID: AuditID) async throws -> AuditSnapshot {
        try await database.read { db in
            let audit = try AuditRows.fetchSession(db, id: auditID)
            let expected = try Row.fetchAll(db, sql: """
                SELECT a.*, \(AuditRows.firstScanColumns) FROM audit_expected e JOIN assets a ON a.id = e.asset_id
                LEFT JOIN scans s ON s.id = e.first_scan_id WHERE e.audit_id = ? ORDER BY e.asset_id
                """, arguments: [auditID]).map { AuditSnapshot.Expected(asset: AssetBrief(row: $0), firstScan: AuditRows.firstScan($0)) }
            let unexpected = try Row.fetchAll(db, sql: """
                SELECT u.key, \(AuditRows.firstScanColumns) FROM audit_unexpected u JOIN scans s ON s.id = u.first_scan_id
                WHERE u.audit_id = ? ORDER BY u.first_scan_id
                """, arguments: [auditID]).compactMap { row in
                    AuditRows.firstScan(row).map { AuditSnapshot.Unexpected(key: row["key"], firstScan: $0) }
                }
            let known = try Row.fetchAll(db, sql: """
                SELECT a.* FROM assets a WHERE NOT EXISTS
                (SELECT 1 FROM audit_expected e WHERE e.audit_id = ? AND e.asset_id = a.id) ORDER BY a.id
                """, arguments: [auditID]).map(AssetBrief.init(row:))
            return AuditSnapshot(audit: audit, expected: expected, unexpected: unexpected, known: known)
        }
    }
}
