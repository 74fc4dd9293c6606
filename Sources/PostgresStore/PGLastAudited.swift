import Foundation
import PostgresNIO

/// Each asset's `last_audited_at`, as on SQLite (`LastAudited` there): the scan time of its last
/// found scan, not voided, of an expected asset, in an audit that has ended. The end of an audit
/// writes it, a late found scan moves it on, and a time never goes back.
enum PGLastAudited {
    static func foundSQL(_ audit: String) -> String {
        """
        SELECT asset_id, max(scanned_at) AS at FROM scans
        WHERE audit_id = \(audit) AND entry_key IS NULL AND asset_id IS NOT NULL AND NOT voided
            AND status IN ('found_expected', 'already_scanned')
        GROUP BY asset_id
        """
    }

    static func updateSQL(_ audit: String) -> String {
        """
        UPDATE assets SET last_audited_at = f.at FROM (\(foundSQL(audit))) AS f
        WHERE assets.id = f.asset_id AND (assets.last_audited_at IS NULL OR assets.last_audited_at < f.at)
        """
    }

    /// Writes the found assets' times when the audit `auditID` ends, in the caller's transaction.
    static func audited(_ c: PostgresConnection, auditID: String) async throws {
        var binds = PostgresBindings()
        binds.append(auditID)
        try await c.run(PostgresQuery(unsafeSQL: updateSQL("$1"), binds: binds))
    }

    /// A late found scan of an ended audit.
    static func found(_ c: PostgresConnection, assetID: Int64, at scannedAt: Date) async throws {
        try await c.run(
            "UPDATE assets SET last_audited_at = \(scannedAt) WHERE id = \(assetID) AND (last_audited_at IS NULL OR last_audited_at < \(scannedAt))")
    }

    /// The filter `AssetFilter.notAuditedSince` and its order, both one range of the expression
    /// index `assets_last_audited` (never audited sorts first, as -infinity).
    static let key = "coalesce(assets.last_audited_at, '-infinity'::timestamptz)"
    static func notSinceClause(_ cutoff: String) -> String { "\(key) < \(cutoff)" }
    static let notSinceOrder = " ORDER BY \(key), assets.id"

    /// Migration 17.
    static let migration = [
        "ALTER TABLE assets ADD COLUMN last_audited_at TIMESTAMPTZ",
        "CREATE INDEX assets_last_audited ON assets ((coalesce(last_audited_at, '-infinity'::timestamptz)), id)",
        "CREATE INDEX assets_country_last_audited ON assets (country, (coalesce(last_audited_at, '-infinity'::timestamptz)), id)",
        """
        UPDATE assets SET last_audited_at = f.at FROM (
            SELECT s.asset_id, max(s.scanned_at) AS at FROM scans s JOIN audits a ON a.id = s.audit_id
            WHERE a.ended_at IS NOT NULL AND s.entry_key IS NULL AND s.asset_id IS NOT NULL AND NOT s.voided
                AND s.status IN ('found_expected', 'already_scanned')
            GROUP BY s.asset_id) AS f
        WHERE assets.id = f.asset_id
        """
    ]
}
