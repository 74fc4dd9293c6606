import Foundation
import GRDB
import InventoryCore
import InventoryStore
import Testing

/// An import's commit leaves its pages in the WAL (the caller does not wait for them to be
/// copied into the file); the next commit, or `AppDatabase.checkpoint`, copies them.
@Suite("The WAL after an import")
struct ImportCheckpointTests {
    static func fileSize(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1
    }

    @Test func theImportsCommitLeavesItsPagesInTheWalUntilACheckpoint() async throws {
        let store = try TemporaryStore()
        let assets = SQLiteAssetService(database: store.database, searchCatchUp: false)
        try await store.addAsset("EXISTING")
        let before = try Self.fileSize(store.path)
        // 20,000 rows are several thousand pages, beyond SQLite's automatic checkpoint (1,000).
        #expect(try await assets.importAssets(ImportTests.rows(20_000)) { _, _ in } == 20_000)
        #expect(try Self.fileSize(store.path) == before, "the commit copied nothing into the file")
        #expect(try await store.count("assets") == 20_001, "the rows are read from the WAL")
        let pages = try await store.database.writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }
        #expect(pages == 1000, "automatic checkpoints are back on for the next commits")

        try await store.database.checkpoint()
        #expect(try Self.fileSize(store.path) > before + 2_000_000, "the pages are in the file")
        #expect(try await store.count("assets") == 20_001)
    }

    @Test func aFailedImportPutsTheAutomaticCheckpointsBack() async throws {
        let store = try TemporaryStore()
        var rows = ImportTests.rows(100)
        rows.append(ImportTests.row(200, "IMP-1"))
        await #expect(throws: InventoryError.self) { _ = try await store.assets.importAssets(rows) { _, _ in } }
        let pages = try await store.database.writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }
        #expect(pages == 1000)
        #expect(try await store.count("assets") == 0)
    }

    /// On a serving process the search index's catch-up follows the import in the background:
    /// it indexes the rows, and its first commit copies the import's pages into the file.
    @Test func theSearchCatchUpIndexesTheRowsAndCheckpointsTheImport() async throws {
        let store = try TemporaryStore()
        try await store.addAsset("EXISTING")
        let before = try Self.fileSize(store.path)
        #expect(try await store.assets.importAssets(ImportTests.rows(20_000)) { _, _ in } == 20_000)
        let deadline = ContinuousClock.now + .seconds(30)
        while try await store.count("assets_fts_paused") > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try await store.count("assets_fts_paused") == 0, "the catch-up is done")
        let indexed = try await store.database.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM assets_fts WHERE assets_fts MATCH ?", arguments: ["\"IMP-SN-19999\""])
        }
        #expect(indexed == 1)
        #expect(try Self.fileSize(store.path) > before + 2_000_000, "the catch-up's commits checkpointed the import")
    }

    static func journalMode(_ database: AppDatabase) async throws -> String? {
        try await database.writer.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
    }

    /// A one-off command alone on the file writes its import once, through a rollback journal,
    /// and leaves the file in WAL mode for the processes that serve it.
    @Test func aWriterAloneOnTheFileImportsThroughARollbackJournal() async throws {
        let store = try TemporaryStore()
        try await store.addAsset("EXISTING")
        let assets = SQLiteAssetService(database: store.database, searchCatchUp: false)
        let before = try Self.fileSize(store.path)
        let database = store.database
        let ((count, modeDuring), alone) = try await store.database.writingAlone {
            let mode = try await Self.journalMode(database)
            return (try await assets.importAssets(ImportTests.rows(20_000)) { _, _ in }, mode)
        }
        #expect(alone)
        #expect(count == 20_000)
        #expect(modeDuring == "truncate")
        #expect(try await Self.journalMode(store.database) == "wal")
        #expect(try Self.fileSize(store.path) > before + 2_000_000, "the rows are in the database file")
        #expect(((try? Self.fileSize(store.path + "-wal")) ?? 0) == 0, "nothing waits in the WAL")
        #expect(try await store.count("assets") == 20_001)
        // The file serves as before: another pool opens it, a scan-sized write commits.
        let again = try store.openAgain()
        #expect(try await again.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM assets") } == 20_001)
        try await store.addAsset("AFTER")
        #expect(try await store.count("assets") == 20_002)
    }

    /// With another connection on the file (a kiosk, a server), the import goes through the WAL
    /// as any write does, and the WAL is checkpointed after it.
    @Test func anotherProcessOnTheFileKeepsTheImportInTheWal() async throws {
        let store = try TemporaryStore()
        try await store.addAsset("EXISTING")
        let other = try store.openAgain()
        #expect(try await other.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM assets") } == 1)
        let assets = SQLiteAssetService(database: store.database, searchCatchUp: false)
        let before = try Self.fileSize(store.path)
        let database = store.database
        let started = ContinuousClock.now
        let ((count, modeDuring, refusedAfter), alone) = try await store.database.writingAlone {
            // Only the refused switch comes before this line: waiting out the busy timeout would
            // take its whole 10 s. (The import after it is not timed: under the whole suite's load
            // it alone has taken 8.7 s.)
            let refusedAfter = ContinuousClock.now - started
            let mode = try await Self.journalMode(database)
            return (try await assets.importAssets(ImportTests.rows(20_000)) { _, _ in }, mode, refusedAfter)
        }
        #expect(!alone)
        #expect(refusedAfter < .seconds(10), "the refused switch did not wait out the busy timeout: \(refusedAfter)")
        #expect(count == 20_000)
        #expect(modeDuring == "wal")
        #expect(try await Self.journalMode(store.database) == "wal")
        #expect(try Self.fileSize(store.path) > before + 2_000_000, "the WAL was checkpointed into the file")
        #expect(try await other.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM assets") } == 20_001)
    }

    /// A failed import through the rollback journal leaves nothing, and the file in WAL mode.
    @Test func aFailedImportAloneLeavesTheFileAsItWas() async throws {
        let store = try TemporaryStore()
        try await store.addAsset("EXISTING")
        let assets = SQLiteAssetService(database: store.database, searchCatchUp: false)
        var rows = ImportTests.rows(20_000)
        rows.append(ImportTests.row(20_002, "IMP-1"))
        await #expect(throws: InventoryError.self) {
            _ = try await store.database.writingAlone { try await assets.importAssets(rows) { _, _ in } }
        }
        #expect(try await Self.journalMode(store.database) == "wal")
        #expect(try await store.count("assets") == 1)
        let journal = (try? Self.fileSize(store.path + "-journal")) ?? 0
        #expect(journal == 0, "no journal is left behind")
        try await store.addAsset("AFTER")
        #expect(try await store.count("assets") == 2)
    }
}
