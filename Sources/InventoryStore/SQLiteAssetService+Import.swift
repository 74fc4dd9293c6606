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
        let count = try await withTaskCancellationHandler {
            try await database.write { db in
                let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
                try db.execute(sql: "PRAGMA cache_size = -\(Self.importCacheKiB)")
                defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
                let importer = try AssetImporter(db: db, caseSensitive: caseSensitive, now: now)
                // The search index takes the import's rows in one statement at the end (see
                // `Schema.assetsSearch`); the pause is a row of this transaction, so no other
                // connection ever sees it, and a rollback takes it away with the rows.
                try db.execute(sql: "INSERT INTO assets_fts_paused (since_id) VALUES (?)", arguments: [importer.firstID])
                var taken = 0
                while let chunk = try handoff.take() {
                    if taken > 0 { progress(taken) }
                    for row in chunk { try importer.take(row) }
                    taken += chunk.count
                }
                // Throwing rolls the whole transaction back: nothing is half-imported.
                guard importer.isClean else { throw Self.importError(importer.problems, count: importer.problemCount) }
                try db.execute(
                    sql: """
                        INSERT INTO assets_fts (rowid, asset_tag, serial_num, name, model, location)
                            SELECT id, asset_tag, serial_num, name, model, location FROM assets WHERE id >= ?;
                        DELETE FROM assets_fts_paused;
                        """, arguments: [importer.firstID])
                return importer.stored
            }
        } onCancel: {
            feeder.cancel()
        }
        progress(count)
        return count
    }

    static func importError(_ problems: ValidationError, count: Int) -> InventoryError {
        var problems = problems
        if count > importProblemLimit {
            problems.add("more", "\(count - importProblemLimit) further rows have problems")
        }
        return .invalid(problems)
    }
}
