import GRDB

/// The schema. Migrations are named, use raw SQL, and never change once shipped: add new ones.
/// Constraints live here: unique tags and serials, foreign keys, one running audit per country.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("inventory") { db in
            try db.execute(
                sql: """
                    CREATE TABLE customers (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL CHECK (name <> ''),
                        contact_number TEXT NOT NULL,
                        address TEXT NOT NULL,
                        country TEXT NOT NULL CHECK (length(country) = 2 AND country = upper(country)),
                        email TEXT,
                        company_id INTEGER,
                        created_at DATETIME NOT NULL,
                        updated_at DATETIME NOT NULL);
                    CREATE TABLE assets (
                        id INTEGER PRIMARY KEY,
                        asset_tag TEXT NOT NULL UNIQUE CHECK (asset_tag <> ''),
                        serial_num TEXT UNIQUE,
                        name TEXT NOT NULL,
                        model TEXT,
                        status TEXT NOT NULL CHECK (status IN ('IN_STOCK','DEPLOYED','READY_TO_DEPLOY','REPAIR','ARCHIVED','DISPOSED')),
                        condition TEXT CHECK (condition IN ('NEW','GOOD','FAIR','POOR')),
                        manufacturer TEXT, asset_type TEXT, cpu_type TEXT, cpu_cores TEXT, memory TEXT, harddrive TEXT,
                        country TEXT NOT NULL CHECK (length(country) = 2 AND country = upper(country)),
                        location TEXT, company TEXT,
                        customer_id INTEGER REFERENCES customers(id) ON DELETE RESTRICT,
                        notes TEXT, tech_notes TEXT,
                        is_erased BOOLEAN NOT NULL DEFAULT 0,
                        has_keyboard BOOLEAN NOT NULL DEFAULT 0,
                        has_charger BOOLEAN NOT NULL DEFAULT 0,
                        created_at DATETIME NOT NULL,
                        updated_at DATETIME NOT NULL);
                    CREATE INDEX assets_country_status ON assets(country, status);
                    CREATE INDEX assets_customer ON assets(customer_id);
                    CREATE INDEX assets_tag_nocase ON assets(asset_tag COLLATE NOCASE);
                    CREATE INDEX assets_serial_nocase ON assets(serial_num COLLATE NOCASE);
                    CREATE TABLE asset_transfers (
                        id INTEGER PRIMARY KEY,
                        asset_id INTEGER NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
                        from_customer_id INTEGER,
                        to_customer_id INTEGER NOT NULL REFERENCES customers(id) ON DELETE RESTRICT,
                        reason TEXT, notes TEXT, effective_date TEXT,
                        created_at DATETIME NOT NULL);
                    CREATE INDEX asset_transfers_asset ON asset_transfers(asset_id);
                    CREATE INDEX asset_transfers_customer ON asset_transfers(to_customer_id);
                    CREATE TABLE accessories (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL CHECK (name <> ''),
                        category TEXT NOT NULL CHECK (category <> ''),
                        manufacturer TEXT, model_no TEXT,
                        total_quantity INTEGER NOT NULL CHECK (total_quantity >= 0),
                        country TEXT CHECK (country IS NULL OR length(country) = 2),
                        notes TEXT, image_url TEXT, company_id INTEGER,
                        created_at DATETIME NOT NULL,
                        updated_at DATETIME NOT NULL);
                    CREATE TABLE accessory_holdings (
                        accessory_id INTEGER NOT NULL REFERENCES accessories(id) ON DELETE RESTRICT,
                        customer_id INTEGER NOT NULL REFERENCES customers(id) ON DELETE RESTRICT,
                        quantity INTEGER NOT NULL CHECK (quantity > 0),
                        PRIMARY KEY (accessory_id, customer_id)) WITHOUT ROWID;
                    CREATE INDEX accessory_holdings_customer ON accessory_holdings(customer_id);
                    CREATE TABLE accessory_movements (
                        id INTEGER PRIMARY KEY,
                        accessory_id INTEGER NOT NULL REFERENCES accessories(id) ON DELETE CASCADE,
                        customer_id INTEGER NOT NULL,
                        kind TEXT NOT NULL CHECK (kind IN ('checkout','checkin')),
                        quantity INTEGER NOT NULL CHECK (quantity > 0),
                        condition TEXT, notes TEXT,
                        created_at DATETIME NOT NULL);
                    """)
        }
        migrator.registerMigration("audits") { db in
            try db.execute(
                sql: """
                    CREATE TABLE audits (
                        id TEXT PRIMARY KEY,
                        country TEXT NOT NULL,
                        total_assets INTEGER NOT NULL CHECK (total_assets >= 0),
                        scanned_count INTEGER NOT NULL DEFAULT 0 CHECK (scanned_count BETWEEN 0 AND total_assets),
                        unexpected_count INTEGER NOT NULL DEFAULT 0 CHECK (unexpected_count >= 0),
                        started_at DATETIME NOT NULL,
                        started_by TEXT NOT NULL,
                        ended_at DATETIME,
                        ended_by TEXT);
                    CREATE UNIQUE INDEX audits_one_running_per_country ON audits(country) WHERE ended_at IS NULL;
                    CREATE INDEX audits_started ON audits(started_at);
                    CREATE TABLE scans (
                        id INTEGER PRIMARY KEY,
                        scan_id TEXT NOT NULL UNIQUE,
                        audit_id TEXT NOT NULL REFERENCES audits(id) ON DELETE CASCADE,
                        identifier TEXT NOT NULL,
                        asset_id INTEGER,
                        status TEXT NOT NULL CHECK (status IN ('found_expected','already_scanned','unexpected','unknown')),
                        reason TEXT,
                        message TEXT NOT NULL,
                        source TEXT NOT NULL CHECK (source IN ('camera','image','manual')),
                        station TEXT NOT NULL,
                        user TEXT NOT NULL,
                        scanned_at DATETIME NOT NULL,
                        recorded_at DATETIME NOT NULL);
                    CREATE INDEX scans_audit ON scans(audit_id, id);
                    CREATE TABLE audit_expected (
                        audit_id TEXT NOT NULL REFERENCES audits(id) ON DELETE CASCADE,
                        asset_id INTEGER NOT NULL,
                        asset_tag TEXT NOT NULL,
                        first_scan_id INTEGER REFERENCES scans(id),
                        scan_count INTEGER NOT NULL DEFAULT 0,
                        PRIMARY KEY (audit_id, asset_id)) WITHOUT ROWID;
                    CREATE TABLE audit_unexpected (
                        audit_id TEXT NOT NULL REFERENCES audits(id) ON DELETE CASCADE,
                        key TEXT NOT NULL,
                        identifier TEXT NOT NULL,
                        asset_id INTEGER,
                        reason TEXT NOT NULL,
                        first_scan_id INTEGER NOT NULL REFERENCES scans(id),
                        scan_count INTEGER NOT NULL DEFAULT 1,
                        PRIMARY KEY (audit_id, key)) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("users", migrate: ServerSchema.users)
        // "station_outbox" and "station_replica" were here, and "station_replica_lookup" after
        // "devices": they are ConnectedStore's now (its `ConnectedSchema`).
        migrator.registerMigration("user_keys", migrate: ServerSchema.userKeys)
        migrator.registerMigration("audit_records", migrate: recordedAssets)
        migrator.registerMigration("devices", migrate: ServerSchema.devices)
        migrator.registerMigration("connected_tables_moved", migrate: connectedTablesMoved)
        migrator.registerMigration("scan_voids", migrate: scanVoids)
        migrator.registerMigration("locations", migrate: locations)
        migrator.registerMigration("scan_photos", migrate: scanPhotos)
        migrator.registerMigration("reconcile", migrate: reconcile)
        migrator.registerMigration("audit_breakdown", migrate: auditBreakdown)
        migrator.registerMigration("assets_search", migrate: assetsSearch)
        migrator.registerMigration("late_scans", migrate: lateScans)
        migrator.registerMigration("audit_revision", migrate: auditRevision)
        migrator.registerMigration("void_answers", migrate: voidAnswers)
        migrator.registerMigration("assets_search_catch_up", migrate: assetsSearchCatchUp)
        migrator.registerMigration("audit_plans", migrate: PlanSchema.auditPlans)
        migrator.registerMigration("webhooks", migrate: PlanSchema.webhooks)
        migrator.registerMigration("last_audited", migrate: LastAudited.migrate)
        migrator.registerMigration("accessory_counts", migrate: AccessoryCounts.migrate)
        migrator.registerMigration("last_audited_pending", migrate: LastAudited.migratePending)
        return migrator
    }

    /// The connected station's outbox and copy have a module and a migrator of their own
    /// (ConnectedStore), so a server's or a standalone station's file no longer gets them. A
    /// file that has them from before loses them where they are all empty, with the identifiers
    /// of the migrations that made them, so a station that connects later makes them again. A
    /// file where any holds rows (scans queued in the outbox, a copy of an audit) keeps them
    /// all as they are: nothing is lost, and the connected station goes on using them.
    static func connectedTablesMoved(_ db: Database) throws {
        let tables = ["replica_unexpected", "replica_expected", "replica_assets", "replica_audits", "outbox", "sync_state"]
        let present = try tables.filter { try db.tableExists($0) }
        for table in present where try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table))") == true { return }
        for table in present { try db.execute(sql: "DROP TABLE \(table)") }
        try db.execute(
            sql: """
                DELETE FROM grdb_migrations
                WHERE identifier IN ('station_outbox', 'station_outbox_location', 'station_replica', 'station_replica_lookup')
                """)
    }

    /// An audit keeps the asset fields it showed: each expected entry holds them as they were
    /// when the audit started, each unexpected entry as they were when it was first scanned (or
    /// when an unknown identifier first named its asset). Later edits and deletes of the
    /// inventory do not rewrite a running or ended audit's lists, summary or report. Entries of
    /// audits from before this migration take the values the inventory holds now.
    static func recordedAssets(_ db: Database) throws {
        let fields = ["serial_num", "name", "model", "status", "location", "company", "country"]
        for column in fields { try db.execute(sql: "ALTER TABLE audit_expected ADD COLUMN \(column) TEXT") }
        for column in ["asset_tag"] + fields { try db.execute(sql: "ALTER TABLE audit_unexpected ADD COLUMN \(column) TEXT") }
        let list = fields.joined(separator: ", ")
        try db.execute(
            sql: """
                UPDATE audit_expected SET (\(list)) = (SELECT \(list) FROM assets a WHERE a.id = audit_expected.asset_id);
                UPDATE audit_unexpected SET (asset_tag, \(list)) = (SELECT asset_tag, \(list) FROM assets a WHERE a.id = audit_unexpected.asset_id)
                    WHERE asset_id IS NOT NULL;
                """)
    }

    /// Voids: each is its own record in `scan_voids`, and the scan it undid is marked `voided`
    /// (it stays in the trail and counts for nothing). Each scan names the unexpected entry it
    /// counted on (`entry_key`, null for a scan of an expected asset), so a void finds the
    /// entry and the entry's next scan. Scans from before take the key of the entry they match.
    static func scanVoids(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE scans ADD COLUMN entry_key TEXT;
                ALTER TABLE scans ADD COLUMN voided BOOLEAN NOT NULL DEFAULT 0;
                UPDATE scans SET entry_key = COALESCE(
                    (SELECT u.key FROM audit_unexpected u WHERE u.audit_id = scans.audit_id AND u.key = 'id:' || scans.identifier),
                    (SELECT u.key FROM audit_unexpected u WHERE u.audit_id = scans.audit_id AND u.key = 'asset:' || scans.asset_id),
                    (SELECT u.key FROM audit_unexpected u JOIN scans f ON f.id = u.first_scan_id
                     WHERE u.audit_id = scans.audit_id AND f.identifier = scans.identifier))
                WHERE status IN ('unexpected', 'unknown');
                CREATE INDEX scans_expected_asset ON scans(audit_id, asset_id, id) WHERE entry_key IS NULL;
                CREATE INDEX scans_entry ON scans(audit_id, entry_key, id) WHERE entry_key IS NOT NULL;
                CREATE TABLE scan_voids (
                    id INTEGER PRIMARY KEY,
                    void_id TEXT NOT NULL UNIQUE,
                    scan_row INTEGER NOT NULL UNIQUE REFERENCES scans(id) ON DELETE CASCADE,
                    audit_id TEXT NOT NULL REFERENCES audits(id) ON DELETE CASCADE,
                    reason TEXT,
                    station TEXT NOT NULL,
                    user TEXT NOT NULL,
                    voided_at DATETIME NOT NULL,
                    recorded_at DATETIME NOT NULL);
                CREATE INDEX scan_voids_audit ON scan_voids(audit_id, id);
                """)
    }

    /// An audit may be narrowed to locations (a JSON array; null for the whole country), and a
    /// scan keeps where its station stood, which says whether an asset found was misplaced.
    static func locations(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE audits ADD COLUMN locations TEXT;
                ALTER TABLE scans ADD COLUMN location TEXT;
                CREATE INDEX assets_country_location ON assets(country, location);
                """)
    }

    /// The camera's frame of a scan, kept as evidence (`ScanPhoto`): one per scan, deleted with
    /// it, and by the retention (`taken_at`).
    static func scanPhotos(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE scan_photos (
                    scan_row INTEGER PRIMARY KEY REFERENCES scans(id) ON DELETE CASCADE,
                    audit_id TEXT NOT NULL REFERENCES audits(id) ON DELETE CASCADE,
                    jpeg BLOB NOT NULL,
                    bytes INTEGER NOT NULL,
                    taken_at DATETIME NOT NULL,
                    recorded_at DATETIME NOT NULL);
                CREATE INDEX scan_photos_taken ON scan_photos(taken_at);
                CREATE INDEX scan_photos_audit ON scan_photos(audit_id);
                """)
    }

    /// Reconciliation: the extra asset status `MISSING`, and each asset's history.
    ///
    /// SQLite cannot change a CHECK constraint, so `assets` is rebuilt the way SQLite and GRDB
    /// describe (foreign keys are off while a migration runs and checked at its end): a new
    /// table made from the stored definition with the wider check, the rows copied, the old
    /// table dropped, the new one renamed, and the old table's indexes and triggers made again
    /// from their stored definitions. Tables that refer to `assets` keep referring to it.
    static func reconcile(_ db: Database) throws {
        let oldCheck = "CHECK (status IN ('IN_STOCK','DEPLOYED','READY_TO_DEPLOY','REPAIR','ARCHIVED','DISPOSED'))"
        let newCheck = "CHECK (status IN ('IN_STOCK','DEPLOYED','READY_TO_DEPLOY','REPAIR','ARCHIVED','DISPOSED','MISSING'))"
        guard let definition = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'assets'"),
            definition.contains(oldCheck), definition.hasPrefix("CREATE TABLE assets")
        else {
            throw DatabaseError(message: "the assets table does not have the status check this migration widens")
        }
        let dependents = try String.fetchAll(
            db, sql: "SELECT sql FROM sqlite_master WHERE tbl_name = 'assets' AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid")
        let rebuilt = "CREATE TABLE assets_rebuilt" + definition.dropFirst("CREATE TABLE assets".count)
        try db.execute(sql: rebuilt.replacingOccurrences(of: oldCheck, with: newCheck))
        try db.execute(
            sql: """
                INSERT INTO assets_rebuilt SELECT * FROM assets;
                DROP TABLE assets;
                ALTER TABLE assets_rebuilt RENAME TO assets;
                """)
        for statement in dependents { try db.execute(sql: statement) }
        try db.execute(
            sql: """
                CREATE TABLE asset_history (
                    id INTEGER PRIMARY KEY,
                    asset_id INTEGER NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
                    at DATETIME NOT NULL,
                    field TEXT NOT NULL,
                    from_value TEXT,
                    to_value TEXT,
                    audit_id TEXT,
                    user_name TEXT NOT NULL,
                    kind TEXT NOT NULL);
                CREATE INDEX asset_history_asset ON asset_history(asset_id, id);
                CREATE INDEX asset_history_audit ON asset_history(audit_id, kind, asset_id) WHERE audit_id IS NOT NULL;
                """)
    }

    /// The breakdown without walking the expected set: each audit's expected assets per
    /// registered location, counted once when it starts (the expected set never changes after),
    /// and indexes from a scan to the expected or unexpected entry it was the first scan of, so
    /// first finds are counted from the audit's scans. Audits from before are counted here.
    static func auditBreakdown(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE audit_location_expected (
                    audit_id TEXT NOT NULL REFERENCES audits(id) ON DELETE CASCADE,
                    location TEXT,
                    expected INTEGER NOT NULL);
                CREATE INDEX audit_location_expected_audit ON audit_location_expected(audit_id);
                INSERT INTO audit_location_expected (audit_id, location, expected)
                    SELECT audit_id, location, count(*) FROM audit_expected GROUP BY audit_id, location;
                CREATE INDEX audit_expected_first_scan ON audit_expected(first_scan_id) WHERE first_scan_id IS NOT NULL;
                CREATE INDEX audit_unexpected_first ON audit_unexpected(audit_id, first_scan_id);
                """)
    }

    /// The index that serves "contains" searches of 3 or more characters: FTS5 with the trigram
    /// tokenizer over the fields a search reads, of the assets only (never of an audit's own
    /// copy, which would be built again for every audit). It holds no text of its own
    /// (`content='assets'`, and no per-row sizes, which only ranking needs); triggers keep it in
    /// step with every insert, delete and change of those fields, and the migration fills it
    /// from the assets there are. An import pauses the insert trigger inside its transaction
    /// (a row in `assets_fts_paused`) and indexes its rows in one statement at the end: with a
    /// trigger per inserted row the import of 1,000,000 assets took 123 s of user CPU instead of 73 s
    /// (FTS5 in SQLite 3.40 seems to write its pending terms out at each statement's savepoint).
    /// A search asks it for candidate ids, then keeps the rows whose
    /// fields contain the text as `LIKE` says (the index folds case beyond ASCII, `LIKE` does not).
    /// Scans accepted after their audit ended (`LateScans`): each marked, and counted on the
    /// audit. `audit_stations`: the stations that sent an audit scans or asked after it, when
    /// each was last heard from, and how many scans it said were still waiting to be sent.
    static func lateScans(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE scans ADD COLUMN late BOOLEAN NOT NULL DEFAULT 0;
                ALTER TABLE audits ADD COLUMN late_count INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE audit_stations (
                    audit_id TEXT NOT NULL REFERENCES audits(id) ON DELETE CASCADE,
                    station TEXT NOT NULL,
                    user TEXT NOT NULL,
                    joined_at DATETIME NOT NULL,
                    last_seen_at DATETIME NOT NULL,
                    waiting INTEGER,
                    PRIMARY KEY (audit_id, station)) WITHOUT ROWID;
                """)
    }

    /// The revision that orders an audit's numbers (`AuditProgress.revision`): a trigger raises it
    /// in the transaction of every change to them, whichever statement makes it (a scan, a late
    /// scan, a void, the end, the expected set's count), so no write path can forget it.
    static func auditRevision(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE audits ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
                CREATE TRIGGER audits_revision
                AFTER UPDATE OF total_assets, scanned_count, unexpected_count, ended_at, late_count ON audits
                WHEN new.total_assets IS NOT old.total_assets OR new.scanned_count IS NOT old.scanned_count
                    OR new.unexpected_count IS NOT old.unexpected_count OR new.ended_at IS NOT old.ended_at
                    OR new.late_count IS NOT old.late_count
                BEGIN
                    UPDATE audits SET revision = old.revision + 1 WHERE id = new.id;
                END;
                """)
    }

    static func assetsSearch(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE assets_fts USING fts5(
                    asset_tag, serial_num, name, model, location,
                    content='assets', content_rowid='id', columnsize=0, tokenize='trigram');
                CREATE TABLE assets_fts_paused (since_id INTEGER NOT NULL);
                CREATE TRIGGER assets_fts_insert AFTER INSERT ON assets WHEN NOT EXISTS (SELECT 1 FROM assets_fts_paused) BEGIN
                    INSERT INTO assets_fts (rowid, asset_tag, serial_num, name, model, location)
                        VALUES (new.id, new.asset_tag, new.serial_num, new.name, new.model, new.location);
                END;
                CREATE TRIGGER assets_fts_delete AFTER DELETE ON assets BEGIN
                    INSERT INTO assets_fts (assets_fts, rowid, asset_tag, serial_num, name, model, location)
                        VALUES ('delete', old.id, old.asset_tag, old.serial_num, old.name, old.model, old.location);
                END;
                CREATE TRIGGER assets_fts_update AFTER UPDATE OF id, asset_tag, serial_num, name, model, location ON assets BEGIN
                    INSERT INTO assets_fts (assets_fts, rowid, asset_tag, serial_num, name, model, location)
                        VALUES ('delete', old.id, old.asset_tag, old.serial_num, old.name, old.model, old.location);
                    INSERT INTO assets_fts (rowid, asset_tag, serial_num, name, model, location)
                        VALUES (new.id, new.asset_tag, new.serial_num, new.name, new.model, new.location);
                END;
                INSERT INTO assets_fts (assets_fts) VALUES ('rebuild');
                """)
    }

    /// Each void keeps its first answer (`VoidResult.kept`), so the same void sent again, by its
    /// `void_id` or as a second void of the scan, answers exactly as the first did. Voids from
    /// before answer from the trail, as they did.
    static func voidAnswers(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE scan_voids ADD COLUMN answer TEXT")
    }

    /// An import no longer fills the search index inside its transaction: it leaves a pause
    /// (`assets_fts_paused.since_id`, the first id not indexed) that outlives its commit, and
    /// the serving process indexes those rows afterwards (`AssetSearchIndex.catchUp`). The
    /// triggers that take an edited or deleted asset out of the index leave alone rows at or
    /// above the pause, which the index does not hold yet.
    static func assetsSearchCatchUp(_ db: Database) throws {
        let above = "EXISTS (SELECT 1 FROM assets_fts_paused p WHERE old.id >= p.since_id OR new.id >= p.since_id)"
        try db.execute(
            sql: """
                DROP TRIGGER assets_fts_delete;
                DROP TRIGGER assets_fts_update;
                CREATE TRIGGER assets_fts_delete AFTER DELETE ON assets
                WHEN NOT EXISTS (SELECT 1 FROM assets_fts_paused p WHERE old.id >= p.since_id) BEGIN
                    INSERT INTO assets_fts (assets_fts, rowid, asset_tag, serial_num, name, model, location)
                        VALUES ('delete', old.id, old.asset_tag, old.serial_num, old.name, old.model, old.location);
                END;
                CREATE TRIGGER assets_fts_update AFTER UPDATE OF id, asset_tag, serial_num, name, model, location ON assets
                WHEN NOT \(above) BEGIN
                    INSERT INTO assets_fts (assets_fts, rowid, asset_tag, serial_num, name, model, location)
                        VALUES ('delete', old.id, old.asset_tag, old.serial_num, old.name, old.model, old.location);
                    INSERT INTO assets_fts (rowid, asset_tag, serial_num, name, model, location)
                        VALUES (new.id, new.asset_tag, new.serial_num, new.name, new.model, new.location);
                END;
                """)
    }
}
