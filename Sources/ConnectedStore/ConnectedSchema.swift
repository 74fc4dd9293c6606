import GRDB
import InventoryStore

/// The connected station's tables: the outbox of scans waiting for the server and the copy
/// of the audits it works on (its tables and migrations keep their first name, `replica_…`). They share the station's SQLite file with the inventory
/// (`AppDatabase`) under a migrator of their own, which the outbox and the copy apply when
/// they open the file; like every migration, these never change once shipped.
///
/// The identifiers are the ones these migrations had when every database ran them, so a file
/// that already holds the tables (with its queued scans) is left as it is, and one made before
/// `station_replica_lookup` is brought up to date. InventoryStore's `connected_tables_moved`
/// drops the tables from a file where they hold nothing, and these identifiers with them, so
/// they are made again here when that station connects.
enum ConnectedSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("station_outbox", migrate: outbox)
        migrator.registerMigration("station_replica", migrate: copies)
        migrator.registerMigration("station_replica_lookup", migrate: copyLookup)
        migrator.registerMigration("station_outbox_location", migrate: outboxLocation)
        migrator.registerMigration("station_outbox_voids", migrate: outboxVoids)
        migrator.registerMigration("station_outbox_photos", migrate: outboxPhotos)
        migrator.registerMigration("station_replica_revision", migrate: copyRevision)
        migrator.registerMigration("station_outbox_counts", migrate: outboxCounts)
        return migrator
    }

    /// Brings the connected station's tables in `database`'s file up to date.
    static func migrate(_ database: AppDatabase) throws {
        do { try migrator.migrate(database.writer) } catch let error as DatabaseError {
            throw StoreErrors.map(error, context: "cannot prepare the station's outbox")
        }
    }

    /// Station side: scans waiting for the server, in the order they were made.
    static func outbox(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE outbox (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    scan_id TEXT NOT NULL UNIQUE,
                    audit_id TEXT NOT NULL,
                    identifier TEXT NOT NULL,
                    source TEXT NOT NULL,
                    station TEXT NOT NULL,
                    user TEXT NOT NULL,
                    scanned_at DATETIME NOT NULL,
                    local_status TEXT NOT NULL,
                    local_message TEXT NOT NULL,
                    adds_scanned BOOLEAN NOT NULL,
                    adds_unexpected BOOLEAN NOT NULL,
                    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending','synced','rejected')),
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    server_status TEXT,
                    server_message TEXT,
                    synced_at DATETIME);
                CREATE INDEX outbox_state ON outbox(state, seq);
                CREATE TABLE sync_state (
                    key TEXT PRIMARY KEY,
                    value TEXT) WITHOUT ROWID;
                """)
    }

    /// Station side: where the station stood for each queued scan, sent with it.
    static func outboxLocation(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE outbox ADD COLUMN location TEXT")
    }

    /// Station side: voids made while the server could not be reached, sent after the scans
    /// before them. Each keeps what it took off its audit's running counts (`scanned_delta`,
    /// `unexpected_delta`, 0 or -1), given back when the server answers and its numbers take
    /// over. At most one void per scan stands (a rejected one does not).
    static func outboxVoids(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE outbox_voids (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    void_id TEXT NOT NULL UNIQUE,
                    scan_id TEXT NOT NULL,
                    audit_id TEXT NOT NULL,
                    reason TEXT,
                    station TEXT NOT NULL,
                    user TEXT NOT NULL,
                    voided_at DATETIME NOT NULL,
                    recorded_at DATETIME NOT NULL,
                    effect TEXT,
                    scanned_delta INTEGER NOT NULL,
                    unexpected_delta INTEGER NOT NULL,
                    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending','synced','rejected')),
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    server_message TEXT,
                    synced_at DATETIME);
                CREATE INDEX outbox_voids_state ON outbox_voids(state, seq);
                CREATE UNIQUE INDEX outbox_voids_scan ON outbox_voids(scan_id) WHERE state != 'rejected';
                """)
    }

    /// Station side: typed counts of accessories ("How many?", `audit count`) made while the
    /// server could not take them, or behind scans still waiting. `after_scan_seq` is the newest
    /// scan of the outbox when the count was made: the count goes after it and before the scans
    /// made after it, so a scan that counts one more lands on the count as it did here.
    static func outboxCounts(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE outbox_counts (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    count_id TEXT NOT NULL UNIQUE,
                    audit_id TEXT NOT NULL,
                    tag TEXT NOT NULL,
                    quantity INTEGER NOT NULL CHECK (quantity >= 0),
                    location TEXT,
                    station TEXT NOT NULL,
                    user TEXT NOT NULL,
                    counted_at DATETIME NOT NULL,
                    after_scan_seq INTEGER NOT NULL,
                    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending','synced','rejected')),
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    server_message TEXT,
                    synced_at DATETIME);
                CREATE INDEX outbox_counts_state ON outbox_counts(state, seq);
                """)
    }

    /// Station side: the camera's frames of this station's scans (`ScanPhoto`), sent after their
    /// scans and kept here for the kiosk's lists until the retention deletes them.
    static func outboxPhotos(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE outbox_photos (
                    scan_id TEXT PRIMARY KEY,
                    audit_id TEXT NOT NULL,
                    jpeg BLOB NOT NULL,
                    taken_at DATETIME NOT NULL,
                    state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending','synced','rejected')),
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT) WITHOUT ROWID;
                CREATE INDEX outbox_photos_state ON outbox_photos(state, taken_at);
                """)
    }

    /// Station side: the revision of the numbers this station shows of each audit it holds
    /// (`AuditProgress.revision`, on this station's own scale). Triggers raise it in the
    /// transaction of every change to them: the server's numbers taken, a scan or a void shown
    /// here, a scan the server refused, a new copy. It lives apart from the copy's row, which a
    /// new copy replaces, so it never goes back.
    static func copyRevision(_ db: Database) throws {
        let raise = """
            INSERT INTO replica_revisions (audit_id, revision) VALUES (new.id, 1)
                ON CONFLICT (audit_id) DO UPDATE SET revision = revision + 1;
            """
        try db.execute(
            sql: """
                CREATE TABLE replica_revisions (
                    audit_id TEXT PRIMARY KEY,
                    revision INTEGER NOT NULL) WITHOUT ROWID;
                CREATE TRIGGER replica_revision_copy AFTER INSERT ON replica_audits BEGIN
                    \(raise)
                END;
                CREATE TRIGGER replica_revision_numbers AFTER UPDATE OF session, pending_scanned, pending_unexpected ON replica_audits
                WHEN new.session IS NOT old.session OR new.pending_scanned IS NOT old.pending_scanned
                    OR new.pending_unexpected IS NOT old.pending_unexpected
                BEGIN
                    \(raise)
                END;
                """)
    }

    /// Station side: the local copy of each audit it works on, as the server last told it.
    static func copies(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE replica_audits (
                    id TEXT PRIMARY KEY,
                    session TEXT NOT NULL,
                    pulled_at DATETIME NOT NULL) WITHOUT ROWID;
                CREATE TABLE replica_assets (
                    audit_id TEXT NOT NULL REFERENCES replica_audits(id) ON DELETE CASCADE,
                    asset_id INTEGER NOT NULL,
                    expected BOOLEAN NOT NULL,
                    brief TEXT NOT NULL,
                    first_scan TEXT,
                    PRIMARY KEY (audit_id, asset_id)) WITHOUT ROWID;
                CREATE TABLE replica_unexpected (
                    audit_id TEXT NOT NULL REFERENCES replica_audits(id) ON DELETE CASCADE,
                    key TEXT NOT NULL,
                    first_scan TEXT NOT NULL,
                    PRIMARY KEY (audit_id, key)) WITHOUT ROWID;
                """)
    }

    /// Station side: the copy of an audit answers the rules' questions with indexed queries, so
    /// it is never loaded into memory. The expected set gets one row per asset with its fields
    /// as columns, under a small number (`ref`) for the copy instead of the audit's id, and
    /// indexes on tag and serial number (NOCASE, like the server's: a case-sensitive lookup
    /// narrows with the index and then compares exactly). Unexpected entries keep their asset,
    /// so a repeat is decided here. Other assets of the inventory are no longer kept: a scan of
    /// one is decided by the server. Each copy keeps running counts of what its pending scans
    /// add, so the progress shown after a scan does not count the outbox.
    static func copyLookup(_ db: Database) throws {
        let briefFields = ["asset_tag", "serial_num", "name", "model", "status", "location", "company", "country"]
        let fromBrief = briefFields.map { "json_extract(a.brief, '$.\($0)')" }.joined(separator: ", ")
        let pendingSum = { (column: String) in
            "(SELECT COALESCE(SUM(\(column)), 0) FROM outbox o WHERE o.state = 'pending' AND o.audit_id = replica_audits.id)"
        }
        try db.execute(
            sql: """
                ALTER TABLE replica_audits ADD COLUMN ref INTEGER;
                ALTER TABLE replica_audits ADD COLUMN pending_scanned INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE replica_audits ADD COLUMN pending_unexpected INTEGER NOT NULL DEFAULT 0;
                UPDATE replica_audits SET ref = (SELECT count(*) FROM replica_audits r WHERE r.id <= replica_audits.id),
                    pending_scanned = \(pendingSum("adds_scanned")), pending_unexpected = \(pendingSum("adds_unexpected"));
                CREATE UNIQUE INDEX replica_audits_ref ON replica_audits(ref);
                CREATE TABLE replica_expected (
                    ref INTEGER NOT NULL,
                    asset_id INTEGER NOT NULL,
                    asset_tag TEXT NOT NULL,
                    serial_num TEXT,
                    name TEXT NOT NULL,
                    model TEXT,
                    status TEXT NOT NULL,
                    location TEXT,
                    company TEXT,
                    country TEXT NOT NULL,
                    first_scan TEXT,
                    PRIMARY KEY (ref, asset_id)) WITHOUT ROWID;
                CREATE INDEX replica_expected_tag ON replica_expected(ref, asset_tag COLLATE NOCASE);
                CREATE INDEX replica_expected_serial ON replica_expected(ref, serial_num COLLATE NOCASE);
                INSERT INTO replica_expected (ref, asset_id, \(briefFields.joined(separator: ", ")), first_scan)
                    SELECT r.ref, a.asset_id, \(fromBrief), a.first_scan
                    FROM replica_assets a JOIN replica_audits r ON r.id = a.audit_id WHERE a.expected;
                ALTER TABLE replica_unexpected ADD COLUMN identifier TEXT;
                ALTER TABLE replica_unexpected ADD COLUMN reason TEXT;
                ALTER TABLE replica_unexpected ADD COLUMN asset_id INTEGER;
                \(briefFields.map { "ALTER TABLE replica_unexpected ADD COLUMN \($0) TEXT;" }.joined(separator: "\n"))
                UPDATE replica_unexpected SET asset_id = CAST(substr(key, 7) AS INTEGER) WHERE key LIKE 'asset:%';
                UPDATE replica_unexpected SET identifier = substr(key, 4) WHERE key LIKE 'id:%';
                UPDATE replica_unexpected SET (\(briefFields.joined(separator: ", "))) =
                    (SELECT \(fromBrief) FROM replica_assets a WHERE a.audit_id = replica_unexpected.audit_id AND a.asset_id = replica_unexpected.asset_id)
                    WHERE asset_id IS NOT NULL;
                UPDATE replica_unexpected SET identifier = asset_tag WHERE identifier IS NULL;
                DROP TABLE replica_assets;
                CREATE INDEX replica_unexpected_tag ON replica_unexpected(audit_id, asset_tag COLLATE NOCASE);
                CREATE INDEX replica_unexpected_serial ON replica_unexpected(audit_id, serial_num COLLATE NOCASE);
                """)
    }
}
