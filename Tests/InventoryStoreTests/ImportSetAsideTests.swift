import Foundation
import GRDB
import InventoryCore
import InventoryStore
import Testing
import TestKit

/// An import sets aside, inside its transaction, the search index's insert trigger, the
/// assets' non-unique indexes (into an empty table) and its INSERT's CHECKs, and puts them back
/// before the commit: whatever happens, the schema and the connection's checks are as before.
@Suite("Import's set-aside indexes, trigger and checks")
struct ImportSetAsideTests {
    /// The assets' indexes and triggers, as `sqlite_master` holds them.
    static func schema(_ store: TemporaryStore) async throws -> [String] {
        try await store.database.writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT type || ' ' || name || ': ' || ifnull(sql, '') FROM sqlite_master WHERE tbl_name = 'assets' ORDER BY type, name")
        }
    }

    static func csv(_ rows: Range<Int>, prefix: String = "S") -> AsyncThrowingStream<[UInt8], any Error> {
        CSVFixture("asset_tag", "serial_num", "name", "country", "location", "status").rows(rows) { n in
            ["\(prefix)-\(n)", "\(prefix)SN-\(n * 7919 % 100_003)", "Laptop \(n)", n % 3 == 0 ? "MY" : "sg", "Rack \(n % 7)", "in_stock"]
        }.blocks()
    }

    /// The writer's own connection (the one the import used) still refuses a row that breaks
    /// a CHECK, and SQLite finds every index true to the table.
    static func expectChecksAndIndexesSound(_ store: TemporaryStore, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (ignored, integrity, refused) = try await store.database.writer.write { db in
            let ignored = try Int.fetchOne(db, sql: "PRAGMA ignore_check_constraints")
            let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            var refused = false
            do {
                try db.execute(
                    sql:
                        "INSERT INTO assets (asset_tag, name, status, country, created_at, updated_at) VALUES ('BAD-STATUS', 'x', 'LOST', 'sg', 0, 0)"
                )
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                refused = true
            }
            return (ignored, integrity, refused)
        }
        #expect(ignored == 0, "the connection checks again", sourceLocation: sourceLocation)
        #expect(integrity == ["ok"], sourceLocation: sourceLocation)
        #expect(refused, "a status outside the CHECK's list is refused after the import", sourceLocation: sourceLocation)
    }

    @Test func anImportIntoAnEmptyTableBuildsTheIndexesAgainAndPutsEverythingBack() async throws {
        let store = try TemporaryStore()
        let before = try await Self.schema(store)
        #expect(before.contains { $0.hasPrefix("index assets_country_location") } && before.contains { $0.hasPrefix("trigger assets_fts_insert") })
        #expect(try await store.assets.importAssets(csv: Self.csv(0..<12_000)) { _ in } == 12_000)
        #expect(try await Self.schema(store) == before)
        try await Self.expectChecksAndIndexesSound(store)
        // The rebuilt indexes answer: through each of them, the same counts as the table.
        let counts = try await store.database.writer.read { db in
            [
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM assets INDEXED BY assets_country_location WHERE country = 'MY' AND location = 'Rack 3'"),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM assets NOT INDEXED WHERE country = 'MY' AND location = 'Rack 3'"),
                try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM assets INDEXED BY assets_country_status WHERE country = 'SG' AND status = 'IN_STOCK'"),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM assets INDEXED BY assets_serial_nocase WHERE serial_num = 'ssn-7919' COLLATE NOCASE")
            ]
        }
        #expect(counts == [572, 572, 8_000, 1])
        #expect(try await store.assets.find(identifier: "SSN-7919")?.assetTag == "S-1")
        #expect(try await store.assets.list(AssetFilter(country: "MY"), query: ListQuery(perPage: 1)).pagination.total == 4_000)
    }

    @Test func anImportIntoATableWithRowsKeepsItsIndexesAndFindsRepeats() async throws {
        let store = try TemporaryStore()
        try await store.addAsset("OLD-1", serial: "OLDSN-1")
        let before = try await Self.schema(store)
        #expect(try await store.assets.importAssets(csv: Self.csv(0..<6_000)) { _ in } == 6_000)
        #expect(try await Self.schema(store) == before)
        try await Self.expectChecksAndIndexesSound(store)
        // A second import into the now large table: its repeats of either import are named.
        let refused = await failure {
            _ = try await store.assets.importAssets(
                [
                    ImportTests.row(2, "NEW-1", serial: "NEWSN-1"), ImportTests.row(3, "S-17", serial: "NEWSN-2"),
                    ImportTests.row(4, "NEW-3", serial: "OLDSN-1"), ImportTests.row(5, "NEW-4", serial: "NEWSN-1")
                ]) { _, _ in }
        }
        #expect(
            refused?.fields == [
                "line 3": ["asset_tag 'S-17' is already in the inventory"], "line 4": ["serial_num 'OLDSN-1' is already in the inventory"],
                "line 5": ["serial_num 'NEWSN-1' repeats line 2"]
            ])
        #expect(try await Self.schema(store) == before)
        try await Self.expectChecksAndIndexesSound(store)
        #expect(try await store.count("assets") == 6_001)
    }

    @Test func aRefusedImportIntoAnEmptyTableLeavesItsIndexesTriggerAndChecksAsTheyWere() async throws {
        let store = try TemporaryStore()
        let before = try await Self.schema(store)
        var text = "asset_tag,serial_num,name,country\n"
        for n in 0..<15_000 { text += n == 14_000 ? "S-3,,Laptop,SG\n" : "S-\(n),SN-\(n),Laptop,SG\n" }
        let refused = await failure { _ = try await store.assets.importAssets(csv: CSVFixture.blocks(text)) { _ in } }
        #expect(refused?.fields == ["line 14002": ["asset_tag 'S-3' repeats line 5"]])
        #expect(try await store.count("assets") == 0)
        #expect(try await store.count("assets_fts_paused") == 0)
        #expect(try await Self.schema(store) == before)
        try await Self.expectChecksAndIndexesSound(store)
        // A stream that fails midway, too.
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self)
        continuation.yield(Array("asset_tag,name,country\nA-1,Laptop,SG\n".utf8))
        continuation.finish(throwing: StreamedImportTests.ReadFailure())
        await #expect(throws: StreamedImportTests.ReadFailure.self) { _ = try await store.assets.importAssets(csv: stream) { _ in } }
        #expect(try await Self.schema(store) == before)
        try await Self.expectChecksAndIndexesSound(store)
    }

    /// With case-insensitive tags each row is looked up through the case-folding indexes, which
    /// stay while the other indexes of an empty table are set aside.
    @Test func aCaseInsensitiveImportIntoAnEmptyTableFindsRepeatsThatDifferInCase() async throws {
        let store = try TemporaryStore()
        let assets = SQLiteAssetService(database: store.database, caseSensitive: false)
        let before = try await Self.schema(store)
        let refused = await failure {
            _ = try await assets.importAssets([
                ImportTests.row(2, "Tag-1", serial: "Ser-1"), ImportTests.row(3, "TAG-1"), ImportTests.row(4, "T-3", serial: "SER-1")
            ]) { _, _ in }
        }
        #expect(refused?.fields == ["line 3": ["asset_tag 'TAG-1' repeats line 2"], "line 4": ["serial_num 'SER-1' repeats line 2"]])
        #expect(try await Self.schema(store) == before)
        #expect(try await assets.importAssets(csv: Self.csv(0..<3_000, prefix: "c")) { _ in } == 3_000)
        #expect(try await assets.find(identifier: "c-2999")?.serialNum == "cSN-\(2999 * 7919 % 100_003)")
        #expect(try await Self.schema(store) == before)
        try await Self.expectChecksAndIndexesSound(store)
    }
}
