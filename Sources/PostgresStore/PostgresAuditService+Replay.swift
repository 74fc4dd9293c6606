import Foundation
import InventoryCore
import PostgresNIO

extension PostgresAuditService {
    /// The stored scan with this scan_id, if any.
    static func storedScan(_ c: PostgresConnection, scanID: String) async throws -> PostgresRandomAccessRow? {
        try await c.row(
            "SELECT id, scan_id, audit_id, identifier, asset_id, status, reason, message, location, late FROM scans WHERE scan_id = \(scanID)")
    }

    /// The outcome of a scan stored earlier, with the audit's progress now. A replay answers
    /// only for the same identifier in the same audit: the caller was checked for this audit,
    /// not for the one another scan_id may belong to.
    static func replay(_ c: PostgresConnection, _ scan: PreparedScan, stored: PostgresRandomAccessRow) async throws -> ScanResult {
        let auditID: AuditID = try stored.get("audit_id")
        let identifier: String = try stored.get("identifier")
        guard identifier == scan.identifier, scan.auditID == nil || scan.auditID == auditID else {
            throw InventoryError.duplicate(field: "scan_id", value: scan.scanID)
        }
        let status = ScanStatus(rawValue: try stored.get("status")) ?? .unknown
        let reason = try stored.get("reason", as: String?.self).flatMap(UnexpectedReason.init(rawValue:))
        let assetID = try stored.get("asset_id", as: Int64?.self)
        let storedID: Int64 = try stored.get("id")
        var entry: AuditAsset?
        if let assetID {
            var binds = PostgresBindings()
            binds.append(auditID)
            binds.append(assetID)
            let sql =
                reason == nil
                ? PGRows.expectedSQL + " AND e.asset_id = $2" : PGRows.unexpectedSQL + " AND u.asset_id = $2 ORDER BY u.first_scan_id LIMIT 1"
            entry = try await c.row(PostgresQuery(unsafeSQL: sql, binds: binds)).map(reason == nil ? PGRows.expectedEntry : PGRows.unexpectedEntry)
        }
        var firstScan: FirstScan?
        if status != .foundExpected {
            let firstStatus = status == .alreadyScanned ? ScanStatus.foundExpected.rawValue : status.rawValue
            if let row = try await c.row(
                """
                SELECT s.id, \(unescaped: PGRows.firstScanColumns) FROM scans s WHERE s.audit_id = \(auditID) AND s.status = \(firstStatus)
                    AND (s.asset_id = \(assetID) OR (s.asset_id IS NULL AND s.identifier = \(identifier))) ORDER BY s.id LIMIT 1
                """), try row.get("id", as: Int64.self) != storedID
            {
                firstScan = try PGRows.firstScan(row)
            }
        }
        var result = ScanResult(
            identifier: identifier, status: status, message: try stored.get("message"), asset: entry,
            reason: reason, firstScan: firstScan, progress: try await PGRows.fetchSession(c, id: auditID).progress,
            auditId: auditID, scanId: try stored.get("scan_id"), foundLocation: try stored.get("location"),
            missingSinceAudit: try await PGMissingMark.audit(c, assetID: entry?.id, status: entry?.status))
        result.late = try stored.get("late", as: Bool.self) ? true : nil
        return result
    }
}
