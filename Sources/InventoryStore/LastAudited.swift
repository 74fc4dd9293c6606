import Foundation
import GRDB
import InventoryCore

/// Each asset's `last_audited_at`: the scan time of its last found scan (not voided) in an audit
/// that has ended. Only scans of an audit's expected assets count (found, or found again): a
/// scan that was unexpected did not find the asset where that audit looked. A time never goes
/// back.
///
/// The end of an audit does not write the column: for an audit that found 712,500 assets that
/// took 24 s inside the end's transaction, with the write lock held. The end marks the audit
/// pending instead (a row of `last_audited_pending`, committed with the end), and `catchUp`
/// writes the times afterwards in batches of `batch` assets, each batch one short write
/// transaction that also moves the pending row's cursor (`after_asset_id`) on, and the last
/// one deletes it. A process killed between batches leaves the row with its cursor; the next
/// process that ends an audit or serves the file (`ServerBackend.sqlite`, and `audit end`)
/// finishes it. Until then every read merges what is not yet written (`pendingColumn`,
/// `notSince`): an asset's time is the later of its column and its found scans in the pending
/// audits, so an answer is the same before, during and after the catch-up. Re-applying a
/// batch is harmless: each write keeps the later time. A late scan of an ended audit moves
/// the column on at once (`found`), pending or not, for the same reason.
enum LastAudited {
    /// Assets (scans, at most) a catch-up batch writes in one transaction: 100–300 ms of a busy
    /// 2-core machine, so a scan waits no longer than that for the writer.
    /// `AUDIT_STATION_LAST_AUDITED_BATCH` sets another size (a test makes it small, so that a
    /// kill lands midway).
    static let batch = ProcessInfo.processInfo.environment["AUDIT_STATION_LAST_AUDITED_BATCH"].flatMap(Int.init).map { max($0, 1) } ?? 2_000

    /// A scan that counts: found (or found again), of an expected asset, not voided.
    static let foundCondition = "entry_key IS NULL AND asset_id IS NOT NULL AND NOT voided AND status IN ('found_expected', 'already_scanned')"

    /// Marks the audit `auditID` pending when it ends, in the end's transaction.
    static func audited(_ db: Database, auditID: String) throws {
        try db.execute(sql: "INSERT INTO last_audited_pending (audit_id) VALUES (?) ON CONFLICT DO NOTHING", arguments: [auditID])
    }

    /// Writes the next batch of the oldest pending audit, in the caller's write transaction:
    /// the times of its found assets after the cursor, up to `batch` scans on, then moves the
    /// cursor there, or deletes the pending row when no scan is left. Whether a pending audit
    /// remains.
    static func catchUp(_ db: Database, batch: Int = batch) throws -> Bool {
        guard let row = try Row.fetchOne(db, sql: "SELECT audit_id, after_asset_id FROM last_audited_pending ORDER BY rowid LIMIT 1") else {
            return false
        }
        let auditID: String = row["audit_id"]
        let after: Int64 = row["after_asset_id"]
        // The asset of the batch's last scan (read from the index `scans_expected_asset`); nil
        // when fewer remain, and this batch is the last.
        let upTo = try Int64.fetchOne(
            db,
            sql: """
                SELECT asset_id FROM scans WHERE audit_id = ? AND entry_key IS NULL AND asset_id > ?
                ORDER BY asset_id LIMIT 1 OFFSET ?
                """, arguments: [auditID, after, max(batch - 1, 0)])
        // Two forms, so that each batch is one bounded range of the index.
        let range = upTo == nil ? "asset_id > ?" : "asset_id > ? AND asset_id <= ?"
        try db.execute(
            sql: """
                UPDATE assets SET last_audited_at = f.at FROM (
                    SELECT asset_id, max(scanned_at) AS at FROM scans WHERE audit_id = ? AND \(range) AND \(foundCondition)
                    GROUP BY asset_id) AS f
                WHERE assets.id = f.asset_id AND (assets.last_audited_at IS NULL OR assets.last_audited_at < f.at)
                """, arguments: upTo.map { [auditID, after, $0] } ?? [auditID, after])
        if let upTo {
            try db.execute(sql: "UPDATE last_audited_pending SET after_asset_id = ? WHERE audit_id = ?", arguments: [upTo, auditID])
        } else {
            try db.execute(sql: "DELETE FROM last_audited_pending WHERE audit_id = ?", arguments: [auditID])
        }
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM last_audited_pending)") ?? false
    }

    static func isPending(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM last_audited_pending)")) ?? false
    }

    /// The last found scan of `assets.id` in the pending audits (nil when none is pending): the
    /// part of its time not yet written. Read from `scans_expected_asset`, one range a pending
    /// audit: `CROSS JOIN` keeps the pending audits as the outer loop, which SQLite would
    /// otherwise put inside a scan of the whole index (155 s instead of 47 ms for a page over
    /// 40,000 assets).
    static let pendingTime = """
        (SELECT max(s.scanned_at) FROM last_audited_pending p CROSS JOIN scans s ON s.audit_id = p.audit_id AND s.asset_id = assets.id
            AND s.entry_key IS NULL WHERE NOT s.voided AND s.status IN ('found_expected', 'already_scanned'))
        """

    /// The column an asset's select adds, merged with `last_audited_at` when the row is read.
    static let pendingColumn = "\(pendingTime) AS pending_audited_at"

    /// A late found scan of an ended audit.
    static func found(_ db: Database, assetID: Int64, at scannedAt: Date) throws {
        try db.cachedStatement(sql: "UPDATE assets SET last_audited_at = ?1 WHERE id = ?2 AND (last_audited_at IS NULL OR last_audited_at < ?1)")
            .execute(arguments: [scannedAt, assetID])
    }

    /// The `WHERE` clause of `AssetFilter.notAuditedSince`, its arguments and the order it lists
    /// in. With nothing pending, both read the expression index `assets_last_audited` (never
    /// audited sorts first, as ''), or with a country `assets_country_last_audited`, so a page
    /// and the count are each one range of it, however many assets there are. While an audit is
    /// pending, the clause also leaves out the assets it found since the cutoff, and the order
    /// is by the merged time: exact, but every match is sorted, for as long as the catch-up
    /// takes.
    static func notSince(_ db: Database, cutoff: Date) throws -> (clause: String, arguments: StatementArguments, order: String) {
        let key = "coalesce(assets.last_audited_at, '')"
        guard try isPending(db) else { return ("\(key) < ?", [cutoff], " ORDER BY \(key), assets.id") }
        let foundSince = """
            EXISTS (SELECT 1 FROM last_audited_pending p CROSS JOIN scans s ON s.audit_id = p.audit_id AND s.asset_id = assets.id
                AND s.entry_key IS NULL WHERE NOT s.voided AND s.status IN ('found_expected', 'already_scanned') AND s.scanned_at >= ?)
            """
        return ("\(key) < ? AND NOT \(foundSince)", [cutoff, cutoff], " ORDER BY max(\(key), coalesce(\(pendingTime), '')), assets.id")
    }

    /// The table a list reads: with `notAuditedSince` and no country, the index of that order,
    /// named (`INDEXED BY`), because with statistics SQLite would rather skip-scan the country
    /// index and sort every match (2.4 s instead of 0.14 s for a deep page of 1,000,000 assets).
    static func table(for filter: AssetFilter) -> String {
        filter.notAuditedSince != nil && filter.country == nil && filter.countries == nil ? "assets INDEXED BY assets_last_audited" : "assets"
    }

    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE assets ADD COLUMN last_audited_at DATETIME;
                CREATE INDEX assets_last_audited ON assets(coalesce(last_audited_at, ''), id);
                CREATE INDEX assets_country_last_audited ON assets(country, coalesce(last_audited_at, ''), id);
                """)
        for auditID in try String.fetchAll(db, sql: "SELECT id FROM audits WHERE ended_at IS NOT NULL") {
            try db.execute(
                sql: """
                    UPDATE assets SET last_audited_at = f.at FROM (
                        SELECT asset_id, max(scanned_at) AS at FROM scans WHERE audit_id = ? AND \(foundCondition) GROUP BY asset_id) AS f
                    WHERE assets.id = f.asset_id AND (assets.last_audited_at IS NULL OR assets.last_audited_at < f.at)
                    """, arguments: [auditID])
        }
    }

    /// The ended audits whose times are not all written yet, each with the asset after which
    /// the catch-up goes on.
    static func migratePending(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE last_audited_pending (audit_id TEXT PRIMARY KEY, after_asset_id INTEGER NOT NULL DEFAULT 0)")
    }
}
