import Foundation
import PostgresNIO

/// Each asset's `last_audited_at`, as on SQLite (`LastAudited` there, which says why): the scan
/// time of its last found scan, not voided, of an expected asset, in an audit that has ended. A
/// time never goes back. The end of an audit marks it pending (`last_audited_pending`, in the
/// end's transaction); `catchUp` writes the times after the commit, a batch of assets a short
/// transaction that moves the pending row's cursor on under its row lock, so servers sharing
/// the database take turns and never write a batch twice at once; a process killed mid-way
/// leaves the row, and the next one finishes it. Reads merge what is not written yet.
enum PGLastAudited {
    /// Assets (scans, at most) a catch-up batch writes in one transaction.
    static let batch = 2_000

    static let foundCondition = "entry_key IS NULL AND asset_id IS NOT NULL AND NOT voided AND status IN ('found_expected', 'already_scanned')"

    /// Marks the audit `auditID` pending when it ends, in the end's transaction.
    static func audited(_ c: PostgresConnection, auditID: String) async throws {
        try await c.run("INSERT INTO last_audited_pending (audit_id) VALUES (\(auditID)) ON CONFLICT DO NOTHING")
    }

    /// Writes the next batch of one pending audit, in the caller's transaction (see
    /// `LastAudited.catchUp`). Whether a pending audit remains.
    static func catchUp(_ c: PostgresConnection, batch: Int = batch) async throws -> Bool {
        // A second process waits here for the first's batch, then reads the moved cursor (or no
        // row, when that batch was the last).
        guard let row = try await c.row("SELECT audit_id, after_asset_id FROM last_audited_pending ORDER BY audit_id LIMIT 1 FOR UPDATE") else {
            return try await isPending(c)
        }
        let auditID = try row.get("audit_id", as: String.self)
        let after = try row.get("after_asset_id", as: Int64.self)
        let upTo = try await c.row(
            """
            SELECT asset_id FROM scans WHERE audit_id = \(auditID) AND entry_key IS NULL AND asset_id > \(after)
            ORDER BY asset_id OFFSET \(max(batch - 1, 0)) LIMIT 1
            """
        ).map { try $0.get("asset_id", as: Int64.self) }
        // Two forms, so that each batch is one bounded range of the index.
        let range: PostgresQuery =
            if let upTo {
                """
                SELECT asset_id, max(scanned_at) AS at FROM scans WHERE audit_id = \(auditID) AND asset_id > \(after) AND asset_id <= \(upTo)
                    AND \(unescaped: foundCondition) GROUP BY asset_id
                """
            } else {
                """
                SELECT asset_id, max(scanned_at) AS at FROM scans WHERE audit_id = \(auditID) AND asset_id > \(after)
                    AND \(unescaped: foundCondition) GROUP BY asset_id
                """
            }
        try await c.run(
            PostgresQuery(
                unsafeSQL: """
                    UPDATE assets SET last_audited_at = f.at FROM (\(range.sql)) AS f
                    WHERE assets.id = f.asset_id AND (assets.last_audited_at IS NULL OR assets.last_audited_at < f.at)
                    """, binds: range.binds))
        if let upTo {
            try await c.run("UPDATE last_audited_pending SET after_asset_id = \(upTo) WHERE audit_id = \(auditID)")
        } else {
            try await c.run("DELETE FROM last_audited_pending WHERE audit_id = \(auditID)")
        }
        return try await isPending(c)
    }

    static func isPending(_ c: PostgresConnection) async throws -> Bool {
        try await c.row("SELECT EXISTS (SELECT 1 FROM last_audited_pending) AS pending")?.get("pending", as: Bool.self) ?? false
    }

    /// The last found scan of `assets.id` in the pending audits: the part of its time not yet
    /// written (nil when nothing is pending).
    static let pendingTime = """
        (SELECT max(s.scanned_at) FROM last_audited_pending p JOIN scans s ON s.audit_id = p.audit_id AND s.asset_id = assets.id
            AND s.entry_key IS NULL WHERE NOT s.voided AND s.status IN ('found_expected', 'already_scanned'))
        """

    /// The column an asset's select adds, merged with `last_audited_at` when the row is read.
    static let pendingColumn = "\(pendingTime) AS pending_audited_at"

    /// A late found scan of an ended audit.
    static func found(_ c: PostgresConnection, assetID: Int64, at scannedAt: Date) async throws {
        try await c.run(
            "UPDATE assets SET last_audited_at = \(scannedAt) WHERE id = \(assetID) AND (last_audited_at IS NULL OR last_audited_at < \(scannedAt))")
    }

    /// The filter `AssetFilter.notAuditedSince` (its cutoff the placeholder `cutoff`) and its
    /// order: with nothing pending, both one range of the expression index `assets_last_audited`
    /// (never audited sorts first, as -infinity); its `INCLUDE (last_audited_at)` lets the count
    /// read the index alone once VACUUM has set the visibility map. While an audit is pending,
    /// as on SQLite: the assets it found since the cutoff are left out, and the order is by the
    /// merged time.
    static func notSince(_ c: PostgresConnection, cutoff: String) async throws -> (clause: String, order: String) {
        guard try await isPending(c) else { return ("\(key) < \(cutoff)", " ORDER BY \(key), assets.id") }
        let foundSince = """
            EXISTS (SELECT 1 FROM last_audited_pending p JOIN scans s ON s.audit_id = p.audit_id AND s.asset_id = assets.id
                AND s.entry_key IS NULL WHERE NOT s.voided AND s.status IN ('found_expected', 'already_scanned') AND s.scanned_at >= \(cutoff))
            """
        return ("\(key) < \(cutoff) AND NOT \(foundSince)", " ORDER BY greatest(\(key), \(pendingTime)), assets.id")
    }

    static let key = "coalesce(assets.last_audited_at, '-infinity'::timestamptz)"

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

    /// Migration 19: the pending audits, and the two indexes again with the column itself
    /// included, so that PostgreSQL counts from the index alone (it considers an index-only
    /// scan only when the index holds every column the query names, and an expression's
    /// column is not held by an index of the expression).
    static let pendingMigration = [
        "CREATE TABLE last_audited_pending (audit_id TEXT PRIMARY KEY REFERENCES audits(id) ON DELETE CASCADE, after_asset_id BIGINT NOT NULL DEFAULT 0)",
        "DROP INDEX assets_last_audited",
        "DROP INDEX assets_country_last_audited",
        "CREATE INDEX assets_last_audited ON assets ((coalesce(last_audited_at, '-infinity'::timestamptz)), id) INCLUDE (last_audited_at)",
        """
        CREATE INDEX assets_country_last_audited ON assets (country, (coalesce(last_audited_at, '-infinity'::timestamptz)), id)
            INCLUDE (last_audited_at)
        """
    ]
}
