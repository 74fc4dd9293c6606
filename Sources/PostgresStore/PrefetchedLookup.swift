import Foundation
import InventoryCore
import PostgresNIO

/// The facts the audit rules may ask about one identifier, fetched in one query inside the
/// scan's transaction (after the audit's row lock, so they include every earlier scan). The
/// rules stay in `AuditRules`; this only answers their questions from what was fetched.
struct PrefetchedLookup: AuditLookup {
    let caseSensitive: Bool
    var expectedByTag: (asset: AssetBrief, firstScan: FirstScan?)?
    var expectedBySerial: (asset: AssetBrief, firstScan: FirstScan?)?
    var knownByTag: AssetBrief?
    var knownBySerial: AssetBrief?
    /// First scans of the unexpected entries under the keys the rules may ask for: the
    /// identifier's, and those of the known assets found.
    var unexpected: [String: FirstScan] = [:]

    /// Answers for the identifier the facts were fetched for.
    func expected(matching identifier: String) -> (asset: AssetBrief, firstScan: FirstScan?)? { expectedByTag ?? expectedBySerial }
    func knownAsset(matching identifier: String) -> AssetBrief? { knownByTag ?? knownBySerial }
    func unexpectedFirstScan(key: String) -> FirstScan? { unexpected[key] }

    /// The facts for `identifier` in audit `auditID`, and the audit's own: the expected asset
    /// by tag then by serial (with its first scan), the known asset by tag then by serial, the
    /// first scans of the unexpected entries under the identifier's key and those assets' keys;
    /// the audit's country, whether it has ended, and whether `scanID` is stored. One prepared
    /// statement, one round trip. Nil when there is no such audit.
    static func fetch(
        _ c: PostgresConnection, auditID: AuditID, identifier: String, scanID: String,
        caseSensitive: Bool
    ) async throws -> (lookup: PrefetchedLookup, audit: ScanAuditFacts)? {
        var binds = PostgresBindings()
        binds.append(auditID)
        binds.append(identifier)
        binds.append(AuditRules.unexpectedKey(identifier: Identifier.matchKey(identifier, caseSensitive: caseSensitive)))
        binds.append(scanID)
        let rows = caseSensitive ? try await c.rows(ExactFacts.self, binds) : try await c.rows(FoldedFacts.self, binds)
        var lookup = PrefetchedLookup(caseSensitive: caseSensitive)
        var audit: ScanAuditFacts?
        for row in rows {
            switch try row.get("kind", as: String.self) {
            case "audit":
                audit = ScanAuditFacts(
                    country: try row.get("country"), endedAt: try row.get("first_scanned_at", as: Date?.self),
                    scanStored: try row.get("id", as: Int64?.self) != nil, locations: AuditLocations.list(try row.get("key")))
            case "et": lookup.expectedByTag = (try PGRows.brief(row), try PGRows.firstScan(row))
            case "es": lookup.expectedBySerial = (try PGRows.brief(row), try PGRows.firstScan(row))
            case "kt": lookup.knownByTag = try PGRows.brief(row)
            case "ks": lookup.knownBySerial = try PGRows.brief(row)
            default:
                if let key = try row.get("key", as: String?.self), let first = try PGRows.firstScan(row) { lookup.unexpected[key] = first }
            }
        }
        return audit.map { (lookup, $0) }
    }

    /// The statement of `fetch`. Its first row (kind `audit`) carries the audit's facts in the
    /// columns of the others: the stored scan's row id as `id`, the end time as
    /// `first_scanned_at`. $1 audit, $2 identifier, $3 the identifier's unexpected key, $4 scan_id.
    static func sql(caseSensitive: Bool) -> String {
        func match(_ column: String) -> String {
            caseSensitive ? "a.\(column) = $2" : PGFold.match("a.\(column)", "$2")
        }
        let columns = "a.id, a.asset_tag, a.serial_num, a.name, a.model, a.status, a.location, a.company, a.country"
        func candidate(_ column: String, expected: Bool) -> String {
            let join = expected ? " JOIN audit_expected e ON e.audit_id = $1 AND e.asset_id = a.id" : ""
            return
                "SELECT \(columns), \(expected ? "e.first_scan_id" : "NULL::BIGINT AS first_scan_id") FROM assets a\(join) WHERE \(match(column)) ORDER BY a.\(column) = $2 DESC, a.id LIMIT 1"
        }
        return """
            WITH et AS (\(candidate("asset_tag", expected: true))), es AS (\(candidate("serial_num", expected: true))),
                 kt AS (\(candidate("asset_tag", expected: false))), ks AS (\(candidate("serial_num", expected: false))),
                 found AS (SELECT 'et' AS kind, * FROM et UNION ALL SELECT 'es', * FROM es UNION ALL SELECT 'kt', * FROM kt
                           UNION ALL SELECT 'ks', * FROM ks)
            SELECT 'audit' AS kind, au.locations AS key, (SELECT s.id FROM scans s WHERE s.scan_id = $4) AS id, NULL::TEXT AS asset_tag,
                   NULL::TEXT AS serial_num, NULL::TEXT AS name, NULL::TEXT AS model, NULL::TEXT AS status, NULL::TEXT AS location,
                   NULL::TEXT AS company, au.country, au.ended_at AS first_scanned_at, NULL::TEXT AS first_station,
                   NULL::TEXT AS first_user, NULL::TEXT AS first_source, NULL::TEXT AS found_location,
                   NULL::TIMESTAMPTZ AS first_late_at
            FROM audits au WHERE au.id = $1
            UNION ALL
            SELECT f.kind, NULL, f.id, f.asset_tag, f.serial_num, f.name, f.model, f.status, f.location, f.company, f.country,
                   \(PGRows.firstScanColumns)
            FROM found f LEFT JOIN scans s ON s.id = f.first_scan_id
            UNION ALL
            SELECT 'u', u.key, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, \(PGRows.firstScanColumns)
            FROM audit_unexpected u JOIN scans s ON s.id = u.first_scan_id
            WHERE u.audit_id = $1 AND u.key IN ($3, (SELECT 'asset:' || id FROM kt), (SELECT 'asset:' || id FROM ks))
            """
    }
}

/// What a scan needs to know of its audit before deciding.
struct ScanAuditFacts {
    var country: String
    /// When the audit ended; nil while it runs.
    var endedAt: Date?
    /// A scan with this scan_id is stored (in this audit or another).
    var scanStored: Bool
    /// The locations the audit is narrowed to (nil: the whole country); the audit's row carries
    /// them in the `key` column.
    var locations: [String]?
}

/// The facts statement with tags and serials matched exactly.
enum ExactFacts: PreparedSQL {
    static let sql = PrefetchedLookup.sql(caseSensitive: true)
    static let types: [PostgresDataType] = [.text, .text, .text, .text]
}

/// The facts statement with ASCII letters' case ignored (`PGFold`, indexed).
enum FoldedFacts: PreparedSQL {
    static let sql = PrefetchedLookup.sql(caseSensitive: false)
    static let types: [PostgresDataType] = [.text, .text, .text, .text]
}
