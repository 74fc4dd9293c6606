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

    /// Fetches the facts for `identifier` in audit `auditID`: the expected asset by tag then by
    /// serial (with its first scan), the known asset by tag then by serial, and the first scans
    /// of the unexpected entries under the identifier's key and those assets' keys.
    static func fetch(_ c: PostgresConnection, auditID: AuditID, identifier: String, caseSensitive: Bool) async throws -> PrefetchedLookup {
        func match(_ column: String) -> String {
            caseSensitive ? "a.\(column) = $2" : "audit_fold(a.\(column)) = audit_fold($2)"
        }
        let columns = "a.id, a.asset_tag, a.serial_num, a.name, a.model, a.status, a.location, a.company, a.country"
        func candidate(_ column: String, expected: Bool) -> String {
            let join = expected ? " JOIN audit_expected e ON e.audit_id = $1 AND e.asset_id = a.id" : ""
            return "SELECT \(columns), \(expected ? "e.first_scan_id" : "NULL::BIGINT AS first_scan_id") FROM assets a\(join) WHERE \(match(column)) ORDER BY a.\(column) = $2 DESC, a.id LIMIT 1"
        }
        let sql = """
            WITH et AS (\(candidate("asset_tag", expected: true))), es AS (\(candidate("serial_num", expected: true))),
                 kt AS (\(candidate("asset_tag", expected: false))), ks AS (\(candidate("serial_num", expected: false))),
                 found AS (SELECT 'et' AS kind, * FROM et UNION ALL SELECT 'es', * FROM es UNION ALL SELECT 'kt', * FROM kt
                           UNION ALL SELECT 'ks', * FROM ks)
            SELECT f.kind, NULL AS key, f.id, f.asset_tag, f.serial_num, f.name, f.model, f.status, f.location, f.company, f.country,
                   \(PGRows.firstScanColumns)
            FROM found f LEFT JOIN scans s ON s.id = f.first_scan_id
            UNION ALL
            SELECT 'u', u.key, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, \(PGRows.firstScanColumns)
            FROM audit_unexpected u JOIN scans s ON s.id = u.first_scan_id
            WHERE u.audit_id = $1 AND u.key IN ($3, (SELECT 'asset:' || id FROM kt), (SELECT 'asset:' || id FROM ks))
            """
        var binds = PostgresBindings()
        binds.append(auditID)
        binds.append(identifier)
        binds.append(AuditRules.unexpectedKey(identifier: Identifier.matchKey(identifier, caseSensitive: caseSensitive)))
        var lookup = PrefetchedLookup(caseSensitive: caseSensitive)
        for row in try await c.rows(PostgresQuery(unsafeSQL: sql, binds: binds)) {
            switch try row.get("kind", as: String.self) {
            case "et": lookup.expectedByTag = (try PGRows.brief(row), try PGRows.firstScan(row))
            case "es": lookup.expectedBySerial = (try PGRows.brief(row), try PGRows.firstScan(row))
            case "kt": lookup.knownByTag = try PGRows.brief(row)
            case "ks": lookup.knownBySerial = try PGRows.brief(row)
            default:
                if let key = try row.get("key", as: String?.self), let first = try PGRows.firstScan(row) { lookup.unexpected[key] = first }
            }
        }
        return lookup
    }
}
