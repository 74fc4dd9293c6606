import ConnectedStore
import Foundation
import GRDB
import InventoryCore
import InventoryStore
import Testing

/// The connected station's tables (its outbox, sync state and copy of audits) have a migrator of
/// their own in ConnectedStore. A server's or standalone station's file no longer gets them; a
/// file made before loses them only where they hold nothing; a connected station that opens a
/// file with queued scans finds every one of them.
@Suite("Connected tables: only a connected station's file holds them")
struct ConnectedTablesTests {
    /// The outbox and sync state, the same in both old layouts (migration `station_outbox`).
    static let outboxTables = """
        CREATE TABLE outbox (
            seq INTEGER PRIMARY KEY AUTOINCREMENT, scan_id TEXT NOT NULL UNIQUE, audit_id TEXT NOT NULL, identifier TEXT NOT NULL,
            source TEXT NOT NULL, station TEXT NOT NULL, user TEXT NOT NULL, scanned_at DATETIME NOT NULL, local_status TEXT NOT NULL,
            local_message TEXT NOT NULL, adds_scanned BOOLEAN NOT NULL, adds_unexpected BOOLEAN NOT NULL,
            state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending','synced','rejected')),
            attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT, server_status TEXT, server_message TEXT, synced_at DATETIME);
        CREATE INDEX outbox_state ON outbox(state, seq);
        CREATE TABLE sync_state (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;

        """

    /// What a file of the last layout before the move held for a connected station, as its
    /// migrations `station_outbox`, `station_replica` and `station_replica_lookup` left it.
    static let oldTables =
        outboxTables + """
            CREATE TABLE replica_audits (
                id TEXT PRIMARY KEY, session TEXT NOT NULL, pulled_at DATETIME NOT NULL, ref INTEGER,
                pending_scanned INTEGER NOT NULL DEFAULT 0, pending_unexpected INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
            CREATE TABLE replica_unexpected (
                audit_id TEXT NOT NULL REFERENCES replica_audits(id) ON DELETE CASCADE, key TEXT NOT NULL, first_scan TEXT NOT NULL,
                identifier TEXT, reason TEXT, asset_id INTEGER, asset_tag TEXT, serial_num TEXT, name TEXT, model TEXT, status TEXT,
                location TEXT, company TEXT, country TEXT,
                PRIMARY KEY (audit_id, key)) WITHOUT ROWID;
            CREATE UNIQUE INDEX replica_audits_ref ON replica_audits(ref);
            CREATE TABLE replica_expected (
                ref INTEGER NOT NULL, asset_id INTEGER NOT NULL, asset_tag TEXT NOT NULL, serial_num TEXT, name TEXT NOT NULL, model TEXT,
                status TEXT NOT NULL, location TEXT, company TEXT, country TEXT NOT NULL, first_scan TEXT,
                PRIMARY KEY (ref, asset_id)) WITHOUT ROWID;
            CREATE INDEX replica_expected_tag ON replica_expected(ref, asset_tag COLLATE NOCASE);
            CREATE INDEX replica_expected_serial ON replica_expected(ref, serial_num COLLATE NOCASE);
            CREATE INDEX replica_unexpected_tag ON replica_unexpected(audit_id, asset_tag COLLATE NOCASE);
            CREATE INDEX replica_unexpected_serial ON replica_unexpected(audit_id, serial_num COLLATE NOCASE);
            """

    /// The same from before `station_replica_lookup`: the copy kept each asset as JSON.
    static let preLookupTables =
        outboxTables + """
            CREATE TABLE replica_audits (id TEXT PRIMARY KEY, session TEXT NOT NULL, pulled_at DATETIME NOT NULL) WITHOUT ROWID;
            CREATE TABLE replica_assets (
                audit_id TEXT NOT NULL REFERENCES replica_audits(id) ON DELETE CASCADE, asset_id INTEGER NOT NULL,
                expected BOOLEAN NOT NULL, brief TEXT NOT NULL, first_scan TEXT,
                PRIMARY KEY (audit_id, asset_id)) WITHOUT ROWID;
            CREATE TABLE replica_unexpected (
                audit_id TEXT NOT NULL REFERENCES replica_audits(id) ON DELETE CASCADE, key TEXT NOT NULL, first_scan TEXT NOT NULL,
                PRIMARY KEY (audit_id, key)) WITHOUT ROWID;
            """

    /// The identifiers an earlier file recorded for its station tables.
    static let oldMigrations = ["station_outbox", "station_replica", "station_replica_lookup"]
    /// The connected station's migrations now: those, and the outbox's location.
    static let connectedMigrations = [
        "station_outbox", "station_outbox_counts", "station_outbox_location", "station_outbox_photos", "station_outbox_voids", "station_replica",
        "station_replica_lookup", "station_replica_revision"
    ]

    /// Turns a file made now into one the earlier code made: the server's part of the schema
    /// is the same, the station's tables are added as its migrations had made them and recorded
    /// under their identifiers, and the migration that moves them has not run yet.
    static func makeOld(
        _ database: AppDatabase, tables: String = oldTables, migrations: [String] = oldMigrations,
        rows: (@Sendable (Database) throws -> Void)? = nil
    ) async throws {
        try await database.writer.write { db in
            try db.execute(sql: tables)
            for identifier in migrations { try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier]) }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'connected_tables_moved'")
            try rows?(db)
        }
    }

    /// The connected station's tables and indexes in the file, and its migrations recorded there.
    static func layout(_ database: AppDatabase) async throws -> (tables: [String], migrations: [String]) {
        try await database.writer.read { db in
            (
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT name FROM sqlite_master WHERE name LIKE 'outbox%' OR name LIKE 'replica%' OR name = 'sync_state' ORDER BY name
                        """),
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations WHERE identifier LIKE 'station%' ORDER BY identifier")
            )
        }
    }

    /// The station's tables as the earlier code made them (before offline voids and photos).
    static let oldLayout = [
        "outbox", "outbox_state", "replica_audits", "replica_audits_ref", "replica_expected",
        "replica_expected_serial", "replica_expected_tag", "replica_unexpected", "replica_unexpected_serial",
        "replica_unexpected_tag", "sync_state"
    ]

    static let connectedLayout = [
        "outbox", "outbox_counts", "outbox_counts_state", "outbox_photos", "outbox_photos_state", "outbox_state", "outbox_voids", "outbox_voids_scan",
        "outbox_voids_state",
        "replica_audits", "replica_audits_ref", "replica_expected",
        "replica_expected_serial", "replica_expected_tag", "replica_revision_copy", "replica_revision_numbers", "replica_revisions",
        "replica_unexpected", "replica_unexpected_serial", "replica_unexpected_tag", "sync_state"
    ]

    static let audit = AuditSession(
        id: "audit-1", country: "SG", progress: AuditProgress(totalAssets: 3, scannedCount: 0, unexpectedCount: 0),
        startedAt: Date(timeIntervalSince1970: 1_700_000_000), startedBy: "Ann")

    static func scan(_ identifier: String, id: String, addsScanned: Bool = true) -> OutboxEntry {
        OutboxEntry(
            scanID: id, auditID: audit.id, identifier: identifier, source: .manual, station: "kiosk-1", user: "Ann",
            scannedAt: Date(timeIntervalSince1970: 1_700_000_100), localStatus: addsScanned ? .foundExpected : .pending,
            localMessage: "queued", addsScanned: addsScanned, addsUnexpected: false)
    }

    /// Queues `entry` in an outbox of either layout, as the earlier code did.
    static func queue(_ db: Database, _ entry: OutboxEntry) throws {
        try db.execute(
            sql: """
                INSERT INTO outbox (scan_id, audit_id, identifier, source, station, user, scanned_at, local_status, local_message,
                                    adds_scanned, adds_unexpected)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                entry.scanID, entry.auditID, entry.identifier, entry.source.rawValue, entry.station, entry.user,
                entry.scannedAt, entry.localStatus.rawValue, entry.localMessage, entry.addsScanned, entry.addsUnexpected
            ])
    }

    static func sessionText() throws -> String { String(decoding: try JSONEncoder.auditStation().encode(audit), as: UTF8.self) }

    @Test("A new server's or standalone station's database has none of them")
    func freshFileHasNone() async throws {
        let store = try TemporaryStore()
        let layout = try await Self.layout(store.database)
        #expect(layout.tables.isEmpty)
        #expect(layout.migrations.isEmpty)
        #expect(try await store.openAgain().writer.read { db in try db.tableExists("users") && db.tableExists("devices") })
    }

    @Test("A connected station's database has them, opened again standalone or connected")
    func connectedFileHasThem() async throws {
        let store = try TemporaryStore()
        let outbox = try StationOutbox(database: store.database)
        let copies = try StationCopy(database: store.database)
        #expect(try await Self.layout(store.database) == (Self.connectedLayout, Self.connectedMigrations))

        let expected = (1...3).map {
            AuditSnapshot.Expected(
                asset: AssetBrief(
                    id: Int64($0), assetTag: "A\($0)", name: "Laptop \($0)",
                    country: "SG"), firstScan: nil)
        }
        try await copies.store(audit: Self.audit, expected: expected)
        let local = try #require(try await copies.record(Self.scan("A1", id: "scan-1"), caseSensitive: true))
        #expect(local.decision.status == .foundExpected)
        #expect(try await outbox.pending().map(\.scanID) == ["scan-1"])

        let again = try store.openAgain()
        #expect(try await Self.layout(again) == (Self.connectedLayout, Self.connectedMigrations))
        #expect(try await StationOutbox(database: again).pending().map(\.scanID) == ["scan-1"])
        #expect(try await StationCopy(database: again).localSession(auditID: Self.audit.id)?.scannedCount == 1)
    }

    @Test("An older file's empty tables are dropped, and made again when the station connects")
    func emptyOldTablesAreDropped() async throws {
        let store = try TemporaryStore()
        try await Self.makeOld(store.database)
        #expect(try await Self.layout(store.database) == (Self.oldLayout, Self.oldMigrations))

        let reopened = try store.openAgain()
        #expect(try await Self.layout(reopened) == ([], []))
        #expect(try await reopened.writer.read { db in try db.tableExists("users") && db.tableExists("audits") })

        let outbox = try StationOutbox(database: reopened)
        #expect(try await Self.layout(reopened) == (Self.connectedLayout, Self.connectedMigrations))
        let counts = try await outbox.counts()
        #expect([counts.pending, counts.synced, counts.rejected] == [0, 0, 0] && counts.lastError == nil)
    }

    @Test("The tables of an older empty file from before the indexed copy are dropped too")
    func emptyPreLookupTablesAreDropped() async throws {
        let store = try TemporaryStore()
        try await Self.makeOld(store.database, tables: Self.preLookupTables, migrations: ["station_outbox", "station_replica"])
        #expect(try await Self.layout(store.openAgain()) == ([], []))
    }

    @Test("An older file with queued scans keeps them, and the connected station finds them all")
    func queuedScansAreKept() async throws {
        let store = try TemporaryStore()
        let session = try Self.sessionText()
        let firstScan = String(decoding: try JSONEncoder.auditStation().encode(Self.scan("A1", id: "scan-1").firstScan), as: UTF8.self)
        try await Self.makeOld(store.database) { db in
            try db.execute(
                sql: "INSERT INTO replica_audits (id, session, pulled_at, ref, pending_scanned) VALUES ('audit-1', ?, ?, 1, 1)",
                arguments: [session, Date()])
            for index in 1...3 {
                try db.execute(
                    sql: """
                        INSERT INTO replica_expected (ref, asset_id, asset_tag, name, status, country, first_scan)
                        VALUES (1, ?, ?, ?, 'IN_STOCK', 'SG', ?)
                        """, arguments: [index, "A\(index)", "Laptop \(index)", index == 1 ? firstScan : nil])
            }
            try Self.queue(db, Self.scan("A1", id: "scan-1"))
            try Self.queue(db, Self.scan("NEW-9", id: "scan-2", addsScanned: false))
            try db.execute(sql: "INSERT INTO sync_state (key, value) VALUES ('last_error', 'no network')")
        }

        // Opened as any station opens its file: nothing is dropped.
        let reopened = try store.openAgain()
        #expect(try await Self.layout(reopened) == (Self.oldLayout, Self.oldMigrations))

        // The connected station finds its queued scans and its copy, and goes on scanning.
        let outbox = try StationOutbox(database: reopened)
        let copies = try StationCopy(database: reopened)
        #expect(try await outbox.pending().map(\.scanID) == ["scan-1", "scan-2"])
        let counts = try await outbox.counts()
        #expect([counts.pending, counts.synced, counts.rejected] == [2, 0, 0] && counts.lastError == "no network")
        #expect(try await copies.localSession(auditID: Self.audit.id)?.scannedCount == 1)
        let again = try #require(try await copies.record(Self.scan("A1", id: "scan-3"), caseSensitive: true))
        #expect(again.decision.status == .alreadyScanned)
        let next = try #require(try await copies.record(Self.scan("A2", id: "scan-4"), caseSensitive: true))
        #expect(next.decision.status == .foundExpected)
        #expect(next.session.scannedCount == 2)
        #expect(try await outbox.pending().map(\.scanID) == ["scan-1", "scan-2", "scan-3", "scan-4"])
    }

    @Test("An older file from before the indexed copy keeps its queued scans, and the connected station brings its copy up to date")
    func preLookupQueuedScansAreKept() async throws {
        let store = try TemporaryStore()
        let session = try Self.sessionText()
        try await Self.makeOld(store.database, tables: Self.preLookupTables, migrations: ["station_outbox", "station_replica"]) { db in
            try db.execute(sql: "INSERT INTO replica_audits (id, session, pulled_at) VALUES ('audit-1', ?, ?)", arguments: [session, Date()])
            for index in 1...3 {
                let brief = #"{"id":\#(index),"asset_tag":"A\#(index)","name":"Laptop \#(index)","status":"IN_STOCK","country":"SG"}"#
                try db.execute(
                    sql: "INSERT INTO replica_assets (audit_id, asset_id, expected, brief) VALUES ('audit-1', ?, 1, ?)",
                    arguments: [index, brief])
            }
            try Self.queue(db, Self.scan("A1", id: "scan-1"))
        }

        let reopened = try store.openAgain()
        #expect(try await Self.layout(reopened).migrations == ["station_outbox", "station_replica"])

        let copies = try StationCopy(database: reopened)
        #expect(try await Self.layout(reopened) == (Self.connectedLayout, Self.connectedMigrations))
        #expect(try await StationOutbox(database: reopened).pending().map(\.scanID) == ["scan-1"])
        #expect(try await copies.localSession(auditID: Self.audit.id)?.scannedCount == 1)
        let next = try #require(try await copies.record(Self.scan("A3", id: "scan-2"), caseSensitive: true))
        #expect(next.decision.status == .foundExpected)
        #expect(next.decision.asset?.name == "Laptop 3")
    }
}
