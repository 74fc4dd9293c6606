import Foundation
import GRDB
import InventoryCore

extension SQLiteAuditService {
    /// A page of the expected set for a station's copy: a range of the `audit_expected` primary
    /// key, with each asset as it is now (scans match its current tag and serial number).
    public func snapshotExpected(auditID: AuditID, after: Int64?, limit: Int) async throws -> [AuditSnapshot.Expected] {
        try await database.read { db in
            _ = try AuditRows.fetchSession(db, id: auditID)
            let statement = try db.cachedStatement(
                sql: """
                    SELECT a.id, a.asset_tag, a.serial_num, a.name, a.model, a.status, a.location, a.company, a.country,
                           \(AuditRows.firstScanColumns)
                    FROM audit_expected e JOIN assets a ON a.id = e.asset_id LEFT JOIN scans s ON s.id = e.first_scan_id
                    WHERE e.audit_id = ? AND e.asset_id > ? ORDER BY e.asset_id LIMIT ?
                    """)
            return try Row.fetchAll(statement, arguments: [auditID, after ?? Int64.min, max(limit, 1)]).map {
                AuditSnapshot.Expected(asset: AssetBrief(row: $0), firstScan: AuditRows.firstScan($0))
            }
        }
    }

    /// A page of the unexpected entries, by key, with each asset as the entry recorded it.
    public func snapshotUnexpected(auditID: AuditID, after: String?, limit: Int) async throws -> [AuditSnapshot.Unexpected] {
        try await database.read { db in
            _ = try AuditRows.fetchSession(db, id: auditID)
            let statement = try db.cachedStatement(
                sql: """
                    SELECT u.key, u.identifier AS unexpected_identifier, u.reason AS unexpected_reason, u.asset_id AS id, u.asset_tag,
                           u.\(AuditRows.recordedFields.replacingOccurrences(of: ", ", with: ", u.")), \(AuditRows.firstScanColumns)
                    FROM audit_unexpected u JOIN scans s ON s.id = u.first_scan_id
                    WHERE u.audit_id = ? AND u.key > ? ORDER BY u.key LIMIT ?
                    """)
            return try Row.fetchAll(statement, arguments: [auditID, after ?? "", max(limit, 1)]).compactMap { row in
                guard let first = AuditRows.firstScan(row) else { return nil }
                let recorded =
                    (row["id"] as Int64?) != nil && (row["asset_tag"] as String?) != nil && (row["name"] as String?) != nil
                    && (row["status"] as String?) != nil && (row["country"] as String?) != nil
                let asset = recorded ? AssetBrief(row: row) : nil
                return AuditSnapshot.Unexpected(
                    key: row["key"], identifier: row["unexpected_identifier"],
                    reason: UnexpectedReason(rawValue: row["unexpected_reason"] ?? "") ?? .unknown,
                    asset: asset, firstScan: first)
            }
        }
    }
}
