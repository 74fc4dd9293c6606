import GRDB

/// Migrations for the server's users and for a connected station's outbox and replica.
/// Registered by name in `Schema.migrator`; like every migration, they never change once shipped.
enum ConnectedSchema {
    /// Server side: users with bcrypt hashes, revoked tokens, and the server's secrets.
    static func users(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE users (
                id INTEGER PRIMARY KEY,
                email TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (email <> ''),
                name TEXT NOT NULL CHECK (name <> ''),
                password_hash TEXT NOT NULL CHECK (password_hash LIKE '$2%'),
                user_type TEXT NOT NULL CHECK (user_type IN ('ADMIN','STAFF','CLIENT')),
                can_edit_assets BOOLEAN NOT NULL DEFAULT 0,
                countries TEXT NOT NULL DEFAULT '',
                created_at DATETIME NOT NULL);
            CREATE TABLE revoked_tokens (
                token_id TEXT PRIMARY KEY,
                expires_at DATETIME NOT NULL) WITHOUT ROWID;
            CREATE TABLE server_secrets (
                name TEXT PRIMARY KEY,
                value BLOB NOT NULL) WITHOUT ROWID;
            """)
    }

    /// Users get ids that are never handed out again (AUTOINCREMENT), a random token key that
    /// tokens must carry, and a disabled mark. The signing secret leaves the database: it
    /// lives in a key file of mode 0600 or in the environment, so tokens signed with the old
    /// one stop working.
    static func userKeys(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE users_v2 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                email TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (email <> ''),
                name TEXT NOT NULL CHECK (name <> ''),
                password_hash TEXT NOT NULL CHECK (password_hash LIKE '$2%'),
                user_type TEXT NOT NULL CHECK (user_type IN ('ADMIN','STAFF','CLIENT')),
                can_edit_assets BOOLEAN NOT NULL DEFAULT 0,
                countries TEXT NOT NULL DEFAULT '',
                created_at DATETIME NOT NULL,
                token_key TEXT NOT NULL UNIQUE CHECK (length(token_key) >= 32),
                disabled_at DATETIME);
            INSERT INTO users_v2 (id, email, name, password_hash, user_type, can_edit_assets, countries, created_at, token_key)
                SELECT id, email, name, password_hash, user_type, can_edit_assets, countries, created_at, lower(hex(randomblob(16)))
                FROM users;
            DROP TABLE users;
            ALTER TABLE users_v2 RENAME TO users;
            DROP TABLE server_secrets;
            """)
    }

    /// Server side: the devices users log in from (seed 000's device_name), with the push
    /// token a device may register; scans are counted per device name from `scans`.
    static func devices(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE devices (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                device_name TEXT NOT NULL CHECK (device_name <> ''),
                platform TEXT,
                push_token TEXT,
                created_at DATETIME NOT NULL,
                last_login_at DATETIME NOT NULL,
                UNIQUE (user_id, device_name));
            CREATE INDEX scans_station_user ON scans(station, user);
            """)
    }

    /// Station side: scans waiting for the server, in the order they were made.
    static func outbox(_ db: Database) throws {
        try db.execute(sql: """
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

    /// Station side: the local copy of each audit it works on, as the server last told it.
    static func replica(_ db: Database) throws {
        try db.execute(sql: """
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
    static func replicaLookup(_ db: Database) throws {
        let briefFields = ["asset_tag", "serial_num", "name", "model", "status", "location", "company", "country"]
        let fromBrief = briefFields.map { "json_extract(a.brief, '$.\($0)')" }.joined(separator: ", ")
        let pendingSum = { (column: String) in
            "(SELECT COALESCE(SUM(\(column)), 0) FROM outbox o WHERE o.state = 'pending' AND o.audit_id = replica_audits.id)"
        }
        try db.execute(sql: """
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
