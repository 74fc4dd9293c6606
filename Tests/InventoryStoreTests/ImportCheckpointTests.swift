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
}
