import Foundation
import GRDB
import InventoryCore

extension SQLiteAssetService {
    /// Most problems listed in one import error; the count says how many there were in all.
    static let importProblemLimit = 50
    /// Chunks prepared ahead of the database thread.
    static let importChunksAhead = 2
    /// The writer's page cache during an import, in KiB (SQLite's default is 2 MiB). A million
    /// rows touch six indexes, the serials' in no order; a larger cache spills fewer dirty pages
    /// to the WAL mid-transaction. It changes nothing about durability: the commit still
    /// reaches the disk (WAL, synchronous=FULL).
    static let importCacheKiB = 64 * 1024

    /// Checks and stores each chunk as it arrives, in one write transaction for the whole
    /// stream (see the protocol for the contract). A task reads the stream and checks the
    /// fields on the cooperative pool while the writer's thread stores the chunk before it; any
    /// problem rolls the transaction back once the stream has been read to its end.
    public func importAssets(
        streaming chunks: AsyncThrowingStream<[ImportRow], any Error>,
        progress: @escaping @Sendable (Int) -> Void
    ) async throws -> Int {
        let now = Date()
        let handoff = ChunkHandoff<[PreparedRow]>(capacity: Self.importChunksAhead)
        let feeder = Task {
            do {
                for try await chunk in chunks {
                    guard await handoff.put(chunk.map { PreparedRow($0, now: now) }) else { return }
                }
                try Task.checkCancellation()
                handoff.finish(.success(()))
            } catch {
                handoff.finish(.failure(error))
            }
        }
        defer {
            feeder.cancel()
            handoff.abandon()
        }
        let caseSensitive = caseSensitive
        // The import's commit does not checkpoint the WAL: copying its ~300 MB (1,000,000 rows)
        // into the database file and syncing that took about 1 s, which the caller waited for
        // although the rows were durable in the WAL already. The next commit after the import
        // checkpoints: a server's search catch-up, in the background. A one-off command calls
        // `AppDatabase.checkpoint` before it ends.
        let checkpointPages = try await database.writeOutsideTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") ?? 1000
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            return pages
        }
        let restoreCheckpoints = { [database] in
            _ = try? await database.writeOutsideTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = \(checkpointPages)") }
        }
        let count: Int
        do {
            count = try await withTaskCancellationHandler {
                try await database.write { db in
                    let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
                    try db.execute(sql: "PRAGMA cache_size = -\(Self.importCacheKiB)")
                    defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
                    // The search index's insert trigger, and into an empty table the non-unique
                    // indexes, are set aside for the import and put back before its commit (a
                    // rollback keeps them); the import's INSERT skips the CHECKs its rows passed.
                    let setAside = try ImportSetAside(db, caseSensitive: caseSensitive)
                    let stored = try ImportSetAside.withoutChecks(db) {
                        let importer = try AssetImporter(db: db, caseSensitive: caseSensitive, now: now)
                        // The search index takes the import's rows after its commit (`AssetSearchIndex.catchUp`):
                        // the pause, a row of this transaction, says from which id the rows are not
                        // indexed yet. It commits with the rows (a rollback takes it away with them); an
                        // earlier pause still waiting starts lower and stands.
                        try db.execute(
                            sql: "INSERT INTO assets_fts_paused (since_id) SELECT ? WHERE NOT EXISTS (SELECT 1 FROM assets_fts_paused)",
                            arguments: [importer.firstID])
                        var taken = 0
                        while let chunk = try handoff.take() {
                            if taken > 0 { progress(taken) }
                            for row in chunk { try importer.take(row) }
                            taken += chunk.count
                        }
                        // Throwing rolls the whole transaction back: nothing is half-imported.
                        guard importer.isClean else { throw Self.importError(importer.problems, count: importer.problemCount) }
                        return importer.stored
                    }
                    try setAside.restore(db)
                    return stored
                }
            } onCancel: {
                feeder.cancel()
            }
        } catch {
            await restoreCheckpoints()
            throw error
        }
        await restoreCheckpoints()
        progress(count)
        if searchCatchUp { startSearchCatchUp() }
        return count
    }

    /// Indexes, in the background, the rows an import left out of the search index, a chunk
    /// of `AssetSearchIndex.catchUpChunk` rows a write transaction, so scans and edits take
    /// turns with it. Searches read the rows until it is done. A failure (the file busy beyond
    /// the busy timeout) is tried again after 1 to 16 s (`BackgroundCatchUp`, the loop the
    /// last-audited catch-up uses too); a process that ends before leaves the rest to the next
    /// one that opens the file to serve it (`ServerBackend.sqlite`, a standalone kiosk).
    public func startSearchCatchUp() {
        let database = database
        BackgroundCatchUp.start(
            isPending: { try await !database.read { db in try AssetSearchIndex.isComplete(db) } },
            batch: { try await database.write { db in try AssetSearchIndex.catchUp(db, chunk: AssetSearchIndex.catchUpChunk) } })
    }

    /// Indexes every row the search index still lacks, now (tests, and tools that need the
    /// index before they go on).
    public func catchUpSearchIndex() async throws {
        while try await database.write({ db in try AssetSearchIndex.catchUp(db, chunk: AssetSearchIndex.catchUpChunk) }) {}
    }

    static func importError(_ problems: ValidationError, count: Int) -> InventoryError {
        var problems = problems
        if count > importProblemLimit {
            problems.add("more", "\(count - importProblemLimit) further rows have problems")
        }
        return .invalid(problems)
    }
}
