import Foundation
import GRDB
import InventoryCore

/// Accessories in audits (`AccessoryTally`): the expected quantities fixed when an audit starts,
/// and the counts, each a record of the trail (`accessory_counts`: a scan that adds one, or a
/// typed count that sets the quantity at a location) kept with the count it leaves
/// (`audit_accessory_counted`, one row per accessory and location) in the same transaction.
enum AccessoryCounts {
    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE accessories ADD COLUMN tag TEXT CHECK (tag IS NULL OR tag <> '');
                ALTER TABLE accessories ADD COLUMN location TEXT;
                CREATE UNIQUE INDEX accessories_tag ON accessories(tag) WHERE tag IS NOT NULL;
                CREATE INDEX accessories_country_location ON accessories(country, location) WHERE tag IS NOT NULL;
                CREATE TABLE audit_accessories (
                    audit_id TEXT NOT NULL REFERENCES audits(id) ON DELETE CASCADE,
                    accessory_id INTEGER NOT NULL,
                    tag TEXT NOT NULL,
                    name TEXT NOT NULL,
                    location TEXT,
                    expected INTEGER NOT NULL CHECK (expected >= 0),
                    PRIMARY KEY (audit_id, accessory_id)) WITHOUT ROWID;
                CREATE UNIQUE INDEX audit_accessories_tag ON audit_accessories(audit_id, tag);
                CREATE TABLE accessory_counts (
                    id INTEGER PRIMARY KEY,
                    count_id TEXT NOT NULL UNIQUE,
                    audit_id TEXT NOT NULL REFERENCES audits(id) ON DELETE CASCADE,
                    accessory_id INTEGER NOT NULL,
                    location TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('scan', 'set')),
                    quantity INTEGER NOT NULL CHECK (quantity >= 0),
                    source TEXT NOT NULL,
                    station TEXT NOT NULL,
                    user_name TEXT NOT NULL,
                    counted_at DATETIME NOT NULL,
                    recorded_at DATETIME NOT NULL,
                    late BOOLEAN NOT NULL DEFAULT 0);
                CREATE INDEX accessory_counts_audit ON accessory_counts(audit_id, id);
                CREATE TABLE audit_accessory_counted (
                    audit_id TEXT NOT NULL REFERENCES audits(id) ON DELETE CASCADE,
                    accessory_id INTEGER NOT NULL,
                    location TEXT NOT NULL,
                    counted INTEGER NOT NULL CHECK (counted >= 0),
                    PRIMARY KEY (audit_id, accessory_id, location)) WITHOUT ROWID;
                CREATE TABLE accessory_history (
                    id INTEGER PRIMARY KEY,
                    accessory_id INTEGER NOT NULL REFERENCES accessories(id) ON DELETE CASCADE,
                    at DATETIME NOT NULL,
                    field TEXT NOT NULL,
                    from_value TEXT,
                    to_value TEXT,
                    audit_id TEXT,
                    user_name TEXT NOT NULL,
                    kind TEXT NOT NULL);
                CREATE INDEX accessory_history_accessory ON accessory_history(accessory_id, id);
                """)
    }

    /// Fixes the accessories an audit expects as it starts: those of its country with a tag
    /// (and of its locations, when narrowed), each with the quantity not checked out.
    static func expect(_ db: Database, auditID: String, country: String, scope: String?) throws {
        try db.execute(
            sql: """
                INSERT INTO audit_accessories (audit_id, accessory_id, tag, name, location, expected)
                SELECT ?1, a.id, a.tag, a.name, a.location,
                    a.total_quantity - coalesce((SELECT sum(quantity) FROM accessory_holdings h WHERE h.accessory_id = a.id), 0)
                FROM accessories a WHERE a.tag IS NOT NULL AND a.country = ?2
                    AND (?3 IS NULL OR a.location IN (SELECT value FROM json_each(?3)))
                """, arguments: [auditID, country, scope])
    }

    /// The audit's accessory whose tag is `tag`, if it expects one.
    static func expected(_ db: Database, auditID: String, tag: String) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT accessory_id FROM audit_accessories WHERE audit_id = ? AND tag = ?"), arguments: [auditID, tag])
    }

    static let tallySQL = """
        SELECT a.accessory_id, a.tag, a.name, a.location, a.expected,
            coalesce((SELECT sum(counted) FROM audit_accessory_counted c WHERE c.audit_id = a.audit_id AND c.accessory_id = a.accessory_id), 0)
                AS counted
        FROM audit_accessories a WHERE a.audit_id = ?
        """

    static func tally(_ row: Row) -> AccessoryTally {
        AccessoryTally(
            accessoryId: row["accessory_id"], tag: row["tag"], name: row["name"], location: row["location"], expected: row["expected"],
            counted: row["counted"])
    }

    /// Every accessory the audit expects, by tag.
    static func tallies(_ db: Database, auditID: String) throws -> [AccessoryTally] {
        try Row.fetchAll(db, sql: tallySQL + " ORDER BY a.tag", arguments: [auditID]).map(tally)
    }

    static func tally(_ db: Database, auditID: String, accessoryID: Int64) throws -> AccessoryTally? {
        try Row.fetchOne(db, sql: tallySQL + " AND a.accessory_id = ?", arguments: [auditID, accessoryID]).map(tally)
    }

    /// What is counted of one accessory at one location.
    static func countedHere(_ db: Database, auditID: String, accessoryID: Int64, location: String) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT counted FROM audit_accessory_counted WHERE audit_id = ? AND accessory_id = ? AND location = ?",
            arguments: [auditID, accessoryID, location]) ?? 0
    }

    /// Stores one count record and the count it leaves; `quantity` is 1 for a scan.
    static func store(
        _ db: Database, countID: String, auditID: String, accessoryID: Int64, location: String?, kind: String, quantity: Int,
        source: String, station: String, user: String, at: Date, late: Bool
    ) throws -> (tally: AccessoryTally, here: Int) {
        let place = location ?? ""
        try db.execute(
            sql: """
                INSERT INTO accessory_counts (count_id, audit_id, accessory_id, location, kind, quantity, source, station, user_name, counted_at,
                    recorded_at, late)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [countID, auditID, accessoryID, place, kind, quantity, source, station, user, at, Date(), late])
        let add = kind == "scan"
        try db.execute(
            sql: """
                INSERT INTO audit_accessory_counted (audit_id, accessory_id, location, counted) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (audit_id, accessory_id, location) DO UPDATE SET counted = CASE WHEN ?5 THEN counted + ?4 ELSE ?4 END
                """, arguments: [auditID, accessoryID, place, quantity, add])
        guard let tally = try tally(db, auditID: auditID, accessoryID: accessoryID) else {
            throw InventoryError.notFound("accessory \(accessoryID) in audit \(auditID)")
        }
        return (tally, try countedHere(db, auditID: auditID, accessoryID: accessoryID, location: place))
    }

    /// The answer a stored count record gave, for a replay of its id (the counts as they are now).
    static func replay(_ db: Database, countID: String) throws -> (auditID: String, tally: AccessoryTally, here: Int, location: String?, late: Bool)?
    {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM accessory_counts WHERE count_id = ?"), arguments: [countID])
        else { return nil }
        let auditID: String = row["audit_id"], accessoryID: Int64 = row["accessory_id"], place: String = row["location"]
        guard let tally = try tally(db, auditID: auditID, accessoryID: accessoryID) else { return nil }
        let here = try countedHere(db, auditID: auditID, accessoryID: accessoryID, location: place)
        return (auditID, tally, here, place.isEmpty ? nil : place, row["late"])
    }
}

extension AccessoryCounts {
    /// Reconciliation's `set_quantities`: each accessory the audit expects whose total is not
    /// what was counted plus what customers hold now gets that total, with one entry in its
    /// history naming the audit; an accessory this audit set before is left alone, so a second
    /// run changes nothing. The audit's country must be one the caller may change (`countries`),
    /// or each is listed as skipped. Returns the changes, in accessory order.
    static func setQuantities(
        _ db: Database, auditID: String, country: String, user: String, countries: [String]?, now: Date
    ) throws -> (changes: [ReconcileChange], skipped: [ReconcileSkip]) {
        let kind = ReconcileAction.setQuantities.rawValue
        let held = "coalesce((SELECT sum(quantity) FROM accessory_holdings h WHERE h.accessory_id = a.id), 0)"
        let select = """
            SELECT a.id AS accessory_id, a.tag, a.total_quantity AS from_value, t.counted + \(held) AS to_value
            FROM (\(tallySQL)) t JOIN accessories a ON a.id = t.accessory_id
            WHERE a.total_quantity <> t.counted + \(held)
                AND NOT EXISTS (SELECT 1 FROM accessory_history d WHERE d.accessory_id = a.id AND d.audit_id = ? AND d.kind = '\(kind)')
            ORDER BY a.id
            """
        if let countries, !countries.contains(country) {
            let tags = try String.fetchAll(db, sql: "SELECT tag FROM (\(select))", arguments: [auditID, auditID])
            return ([], tags.map { ReconcileSkip(assetTag: $0, action: .setQuantities) })
        }
        let mark = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM accessory_history") ?? 0
        try db.execute(
            sql: """
                INSERT INTO accessory_history (accessory_id, at, audit_id, user_name, kind, field, from_value, to_value)
                SELECT accessory_id, ?, ?, ?, '\(kind)', 'total_quantity', from_value, to_value FROM (\(select))
                """, arguments: [now, auditID, user, auditID, auditID])
        try db.execute(
            sql: """
                UPDATE accessories SET total_quantity = CAST(h.to_value AS INTEGER), updated_at = ? FROM accessory_history h
                WHERE h.id > ? AND h.kind = '\(kind)' AND h.accessory_id = accessories.id
                """, arguments: [now, mark])
        let changes = try Row.fetchAll(
            db,
            sql: """
                SELECT h.accessory_id, a.tag, h.from_value, h.to_value FROM accessory_history h JOIN accessories a ON a.id = h.accessory_id
                WHERE h.id > ? ORDER BY h.id
                """, arguments: [mark]
        ).map { row in
            ReconcileChange(
                assetId: nil, assetTag: row["tag"] ?? "", action: .setQuantities, field: "total_quantity", from: row["from_value"],
                to: row["to_value"], accessoryId: row["accessory_id"])
        }
        return (changes, [])
    }
}
