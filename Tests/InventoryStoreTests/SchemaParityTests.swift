import AuditTestSupport
import Foundation
import GRDB
import InventoryCore
import InventoryStore
@testable import PostgresStore
import Testing

/// The server keeps the same data on either back end, so a fresh SQLite file and a fresh
/// PostgreSQL database have the same tables with the same columns. What differs by design is
/// listed here, each with its reason; everything else must match, so a migration added to one
/// back end alone fails this test.
@Suite("The SQLite and PostgreSQL schemas")
struct SchemaParityTests {
    /// Tables of a SQLite file that PostgreSQL does not have. Left out by name whether or not a
    /// fresh file has them: the connected station's tables come from ConnectedStore's own
    /// migrations now, and a file from before may still hold them.
    static let onlySQLite: [String: String] = [
        "grdb_migrations": "GRDB's record of the SQLite migrations applied",
        "sqlite_sequence": "SQLite's own counters of AUTOINCREMENT ids",
        "outbox": "a connected station's queue of scans to send: only a station has it, never a server",
        "sync_state": "a connected station's sync bookkeeping",
        "replica_audits": "a connected station's copy of the server's running audits",
        "replica_assets": "a connected station's copy of the server's assets",
        "replica_expected": "a connected station's copy of an audit's expected entries",
        "replica_unexpected": "a connected station's copy of an audit's unexpected entries",
        "assets_fts": "the assets' search index (FTS5, trigram); PostgreSQL searches with ILIKE",
        "assets_fts_data": "FTS5's storage of the assets' search index",
        "assets_fts_idx": "FTS5's storage of the assets' search index",
        "assets_fts_config": "FTS5's storage of the assets' search index",
        "assets_fts_paused": "the first id an import left for the search index to take after its commit (none once it has)"
    ]

    /// Tables of a PostgreSQL database that SQLite does not have.
    static let onlyPostgres: [String: String] = [
        "schema_migrations": "PostgresMigrations' record of the migrations applied (SQLite's is grdb_migrations)"
    ]

    /// Columns that hold the same value under another name.
    static let renamed: [(table: String, sqlite: String, postgres: String, reason: String)] = [
        ("scans", "user", "user_name", "USER is a reserved word in PostgreSQL"),
        ("scan_voids", "user", "user_name", "USER is a reserved word in PostgreSQL"),
        ("audit_stations", "user", "user_name", "USER is a reserved word in PostgreSQL")
    ]

    @Test("A fresh SQLite file and a fresh PostgreSQL database have the same tables and columns")
    func sameTablesAndColumns() async throws {
        let sqlite = try await Self.sqliteColumns()
        let postgres = try await PostgresCluster.withNewDatabase { try await Self.postgresColumns($0) }
        #expect(
            sqlite["assets"]?.contains("asset_tag") == true && postgres["assets"]?.contains("asset_tag") == true,
            "the schemas were read: \(sqlite.keys.sorted()) and \(postgres.keys.sorted())")

        // What is listed as one side's only must be so; a name on both sides is compared instead.
        for name in Self.onlySQLite.keys { #expect(postgres[name] == nil, "\(name) is listed as SQLite's only, but PostgreSQL has it") }
        for name in Self.onlyPostgres.keys { #expect(sqlite[name] == nil, "\(name) is listed as PostgreSQL's only, but SQLite has it") }
        for column in Self.renamed {
            #expect(sqlite[column.table]?.contains(column.sqlite) == true, "SQLite's \(column.table) has no \(column.sqlite)")
            #expect(postgres[column.table]?.contains(column.postgres) == true, "PostgreSQL's \(column.table) has no \(column.postgres)")
        }

        var compared = sqlite.filter { Self.onlySQLite[$0.key] == nil }
        for column in Self.renamed where compared[column.table]?.remove(column.sqlite) != nil {
            compared[column.table]?.insert(column.postgres)
        }
        let differences = Self.differences(sqlite: compared, postgres: postgres.filter { Self.onlyPostgres[$0.key] == nil })
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    /// Each table of a fresh SQLite file (`AppDatabase`, migrated) with its column names.
    static func sqliteColumns() async throws -> [String: Set<String>] {
        let path = "\(temporaryRoot)/\(UUID().uuidString)/schema.sqlite"
        let database = try AppDatabase(path: path)
        let rows = try await database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT m.name, p.name FROM sqlite_master m JOIN pragma_table_info(m.name) p
                    WHERE m.type = 'table'
                    """
            ).map { row -> [String] in [row[0], row[1]] }
        }
        return rows.reduce(into: [:]) { $0[$1[0], default: []].insert($1[1]) }
    }

    /// Each table of the public schema of a fresh PostgreSQL database, migrated, with its column names.
    static func postgresColumns(_ database: PostgresDatabase) async throws -> [String: Set<String>] {
        let rows = try await database.read { c in
            try await c.rows(
                """
                SELECT c.table_name::text, c.column_name::text FROM information_schema.columns c
                JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
                WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
                """
            ).map { [try $0[0].decode(String.self), try $0[1].decode(String.self)] }
        }
        return rows.reduce(into: [:]) { $0[$1[0], default: []].insert($1[1]) }
    }

    /// Each difference in a line: a table one side lacks, or a table's columns one side lacks.
    static func differences(sqlite: [String: Set<String>], postgres: [String: Set<String>]) -> [String] {
        var lines: [String] = []
        for table in Set(sqlite.keys).union(postgres.keys).sorted() {
            switch (sqlite[table], postgres[table]) {
            case (nil, _): lines.append("table \(table): only in PostgreSQL")
            case (_, nil): lines.append("table \(table): only in SQLite")
            case let (lite?, pg?):
                if !lite.subtracting(pg).isEmpty { lines.append("\(table): only in SQLite: \(lite.subtracting(pg).sorted())") }
                if !pg.subtracting(lite).isEmpty { lines.append("\(table): only in PostgreSQL: \(pg.subtracting(lite).sorted())") }
            }
        }
        return lines
    }
}
