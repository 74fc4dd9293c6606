import Foundation
import GRDB
import InventoryCore

/// Answers the audit rules' questions with indexed queries inside the scan's transaction, so
/// the decision sees exactly what the transaction will commit on top of.
struct SQLAuditLookup: AuditLookup {
    let db: Database
    let auditID: AuditID
    let caseSensitive: Bool

    private var collate: String { caseSensitive ? "" : " COLLATE NOCASE" }

    func expected(matching identifier: String) throws -> (asset: AssetBrief, firstScan: FirstScan?)? {
        for column in ["asset_tag", "serial_num"] {
            let statement = try db.cachedStatement(
                sql: """
                    SELECT a.*, \(AuditRows.firstScanColumns) FROM assets a
                    JOIN audit_expected e ON e.audit_id = ? AND e.asset_id = a.id
                    LEFT JOIN scans s ON s.id = e.first_scan_id
                    WHERE a.\(column) = ?\(collate) ORDER BY a.\(column) = ? DESC, a.id LIMIT 1
                    """)
            if let row = try Row.fetchOne(statement, arguments: [auditID, identifier, identifier]) {
                return (AssetBrief(row: row), AuditRows.firstScan(row))
            }
        }
        return nil
    }

    func knownAsset(matching identifier: String) throws -> AssetBrief? {
        for column in ["asset_tag", "serial_num"] {
            let statement = try db.cachedStatement(sql: "SELECT * FROM assets WHERE \(column) = ?\(collate) ORDER BY \(column) = ? DESC, id LIMIT 1")
            if let row = try Row.fetchOne(statement, arguments: [identifier, identifier]) { return AssetBrief(row: row) }
        }
        return nil
    }

    func unexpectedFirstScan(key: String) throws -> FirstScan? {
        let statement = try db.cachedStatement(
            sql: """
                SELECT \(AuditRows.firstScanColumns) FROM audit_unexpected u JOIN scans s ON s.id = u.first_scan_id
                WHERE u.audit_id = ? AND u.key = ?
                """)
        return try Row.fetchOne(statement, arguments: [auditID, key]).flatMap(AuditRows.firstScan)
    }
}

/// Reading audit rows.
enum AuditRows {
    /// The first scan's columns, aliased so they never clash with asset columns.
    static let firstScanColumns = """
        s.scanned_at AS first_scanned_at, s.station AS first_station, s.user AS first_user, s.source AS first_source, \
        s.location AS found_location, CASE WHEN s.late THEN s.recorded_at END AS first_late_at
        """

    static func firstScan(_ row: Row) -> FirstScan? {
        guard let at = row["first_scanned_at"] as Date?, let station = row["first_station"] as String?,
            let user = row["first_user"] as String?, let source = ScanSource(rawValue: row["first_source"] ?? "")
        else { return nil }
        return FirstScan(
            scannedAt: at, station: station, user: user, source: source, location: row["found_location"], arrivedLateAt: row["first_late_at"])
    }

    static func session(_ row: Row) -> AuditSession {
        AuditSession(
            id: row["id"], country: row["country"],
            progress: AuditProgress(
                totalAssets: row["total_assets"], scannedCount: row["scanned_count"],
                unexpectedCount: row["unexpected_count"], revision: row["revision"]),
            startedAt: row["started_at"], startedBy: row["started_by"], endedAt: row["ended_at"], endedBy: row["ended_by"],
            locations: AuditLocations.list(row["locations"]), lateScanCount: row["late_count"])
    }

    static func fetchSession(_ db: Database, id: AuditID) throws -> AuditSession {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM audits WHERE id = ?"), arguments: [id]) else {
            throw InventoryError.notFound("audit \(id)")
        }
        return session(row)
    }

    /// An expected-set entry with the asset as the audit recorded it (nil only for entries of
    /// old audits whose asset was deleted before the fields were kept), and the first scan.
    static func expectedEntry(_ row: Row) -> AuditAsset {
        let brief = (row["name"] as String?) == nil ? nil : AssetBrief(row: row)
        let scan = firstScan(row)
        return AuditAsset(
            asset: brief, identifier: row["expected_tag"], outcome: scan == nil ? .missing : .scanned,
            firstScan: scan, scanCount: row["scan_count"])
    }

    /// An unexpected entry with its asset as recorded (nil for an unknown identifier) and the first scan.
    static func unexpectedEntry(_ row: Row) -> AuditAsset {
        let brief = (row["id"] as Int64?) == nil || (row["name"] as String?) == nil ? nil : AssetBrief(row: row)
        return AuditAsset(
            asset: brief, identifier: row["unexpected_identifier"], outcome: .unexpected,
            reason: UnexpectedReason(rawValue: row["unexpected_reason"] ?? ""),
            firstScan: firstScan(row), scanCount: row["scan_count"])
    }

    /// The asset fields an audit entry records (besides its id and tag).
    static let recordedFields = "serial_num, name, model, status, location, company, country"

    /// The values of `asset_tag` and `recordedFields` for an asset, or NULLs.
    static func recordedValues(_ asset: AssetBrief?) -> StatementArguments {
        [
            asset?.assetTag, asset?.serialNum, asset?.name, asset?.model, asset?.status.rawValue, asset?.location, asset?.company,
            asset?.country
        ]
    }

    static let expectedSQL = """
        SELECT e.asset_id AS id, e.asset_tag, e.\(recordedFields.replacingOccurrences(of: ", ", with: ", e.")),
               e.asset_tag AS expected_tag, e.scan_count, \(firstScanColumns)
        FROM audit_expected e LEFT JOIN scans s ON s.id = e.first_scan_id
        WHERE e.audit_id = ?
        """

    static let unexpectedSQL = """
        SELECT u.asset_id AS id, u.asset_tag, u.\(recordedFields.replacingOccurrences(of: ", ", with: ", u.")),
               u.identifier AS unexpected_identifier, u.reason AS unexpected_reason, u.scan_count, \(firstScanColumns)
        FROM audit_unexpected u JOIN scans s ON s.id = u.first_scan_id
        WHERE u.audit_id = ?
        """
}
