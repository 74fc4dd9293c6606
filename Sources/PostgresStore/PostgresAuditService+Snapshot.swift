import Foundation
import InventoryCore
import PostgresNIO

extension PostgresAuditService {
    /// A page of the expected set for a station's copy: a range of the `audit_expected` primary
    /// key, with each asset as it is now (scans match its current tag and serial number).
    public func snapshotExpected(auditID: AuditID, after: Int64?, limit: Int) async throws -> [AuditSnapshot.Expected] {
        try await database.read { c in
            _ = try await PGRows.fetchSession(c, id: auditID)
            return try await c.rows(
                """
                SELECT a.id, a.asset_tag, a.serial_num, a.name, a.model, a.status, a.location, a.company, a.country,
                       \(unescaped: PGRows.firstScanColumns)
                FROM audit_expected e JOIN assets a ON a.id = e.asset_id LEFT JOIN scans s ON s.id = e.first_scan_id
                WHERE e.audit_id = \(auditID) AND e.asset_id > \(after ?? Int64.min) ORDER BY e.asset_id LIMIT \(max(limit, 1))
                """
            ).map { AuditSnapshot.Expected(asset: try PGRows.brief($0), firstScan: try PGRows.firstScan($0)) }
        }
    }

    /// A page of the unexpected entries, by key (bytewise: the column's collation is "C"), with
    /// each asset as the entry recorded it.
    public func snapshotUnexpected(auditID: AuditID, after: String?, limit: Int) async throws -> [AuditSnapshot.Unexpected] {
        try await database.read { c in
            _ = try await PGRows.fetchSession(c, id: auditID)
            return try await c.rows(
                """
                SELECT u.key, u.identifier AS unexpected_identifier, u.reason AS unexpected_reason, u.asset_id AS id, u.asset_tag,
                       u.serial_num, u.name, u.model, u.status, u.location, u.company, u.country, \(unescaped: PGRows.firstScanColumns)
                FROM audit_unexpected u JOIN scans s ON s.id = u.first_scan_id
                WHERE u.audit_id = \(auditID) AND u.key > \(after ?? "") ORDER BY u.key LIMIT \(max(limit, 1))
                """
            ).compactMap { row in
                guard let first = try PGRows.firstScan(row) else { return nil }
                let recorded =
                    try row.get("id", as: Int64?.self) != nil && row.get("asset_tag", as: String?.self) != nil
                    && row.get("name", as: String?.self) != nil && row.get("status", as: String?.self) != nil
                    && row.get("country", as: String?.self) != nil
                return AuditSnapshot.Unexpected(
                    key: try row.get("key"), identifier: try row.get("unexpected_identifier"),
                    reason: UnexpectedReason(rawValue: try row.get("unexpected_reason")) ?? .unknown,
                    asset: recorded ? try PGRows.brief(row) : nil, firstScan: first)
            }
        }
    }
}
