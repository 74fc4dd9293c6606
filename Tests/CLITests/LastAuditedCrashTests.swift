import Foundation
import GRDB
import InventoryCore
import InventoryStore
import Testing
import TestKit

/// `audit end` writes the found assets' last-audited times after the end has committed, a batch
/// a transaction. Killed with SIGKILL in the middle of that, it must leave the audit pending
/// with every batch it wrote, reads must still give every found asset its time, and the next
/// process that serves the file must finish it.
@Suite struct LastAuditedCrashTests {
    static let assets = 40_000

    @Test func killedMidwayTheNextProcessFinishes() async throws {
        let scratch = try StationProcess.scratch()
        let file = scratch.folder.appendingPathComponent("inventory.csv")
        try CSVFixture("asset_tag", "serial_num", "name", "country", "status").assets(1...Self.assets, tag: "SG-").write(to: file)
        let imported = try await StationProcess.run(["--database", scratch.database, "assets", "import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let started = try await StationProcess.run(["--database", scratch.database, "audit", "start", "--country", "SG", "--user", "lead"])
        #expect(started.status == 0, "\(started.stderr)")

        // 95% found, ten days ago (one time for all, whole seconds).
        let foundAt = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 10 * 86_400).rounded(.down))
        let queue = try DatabaseQueue(path: scratch.database)
        let found = try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO scans (scan_id, audit_id, identifier, asset_id, status, message, source, station, user, scanned_at, recorded_at)
                    SELECT 'c-' || asset_id, audit_id, asset_tag, asset_id, 'found_expected', 'Found', 'camera', 'test', 'lead', ?1, ?1
                    FROM audit_expected WHERE asset_id % 20 <> 1
                    """, arguments: [foundAt])
            return db.changesCount
        }

        let child = try await Child.start(
            StationProcess.executable.path, ["--database", scratch.database, "audit", "end", "--json", "--user", "lead"],
            // Batches of 20 scans: about 1,900 commits, seconds of them, so that the kill lands
            // midway even when this process polls slowly beside other tests.
            environment: ["AUDIT_STATION_LAST_AUDITED_BATCH": "20"], log: scratch.folder.appendingPathComponent("end.log"))
        // Killed once a batch has moved the pending audit's cursor on, and before the last.
        var cursor: Int64 = 0
        while child.isRunning {
            cursor = try await queue.read { db in try Int64.fetchOne(db, sql: "SELECT after_asset_id FROM last_audited_pending") } ?? 0
            if cursor > 0 { break }
            try await Task.sleep(for: .milliseconds(1))
        }
        await child.kill9()
        try #require(cursor > 0, "the end finished before a batch was seen: \(child.logText)")

        let (pending, written) = try await queue.read { db in
            (
                try Int64.fetchOne(db, sql: "SELECT after_asset_id FROM last_audited_pending"),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM assets WHERE last_audited_at IS NOT NULL") ?? 0
            )
        }
        let stillPending = try #require(pending, "the kill came after the last batch: nothing left to finish")
        #expect(stillPending >= cursor)
        #expect(written > 0 && written < found, "killed midway: \(written) of \(found) written")

        // A reader meanwhile (the next command) sees every found asset as audited ten days ago.
        let database = try AppDatabase(path: scratch.database)
        let assets = SQLiteAssetService(database: database)
        let notSince = try await assets.list(AssetFilter(notAuditedSince: foundAt.addingTimeInterval(-86_400)), query: ListQuery(perPage: 10))
        #expect(notSince.pagination.total == Self.assets - found, "only the assets never found")
        let last = try #require(try await assets.find(identifier: "SG-\(Self.assets)"))
        #expect(last.lastAuditedAt == foundAt, "the last asset, not written yet, reads its time")

        // The next process that serves the file finishes the catch-up on its own.
        let backend = ServerBackend.sqlite(database)
        let audits = SQLiteAuditService(database: database)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while try await audits.lastAuditedPending(), clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(try await audits.lastAuditedPending() == false, "the next process finished it")
        _ = backend
        let (exact, stamped) = try await queue.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM assets WHERE last_audited_at = ?", arguments: [foundAt]),
                try Int.fetchOne(db, sql: "SELECT count(*) FROM assets WHERE last_audited_at IS NOT NULL")
            )
        }
        #expect(exact == found && stamped == found, "\(String(describing: exact)) and \(String(describing: stamped)) of \(found)")
    }
}
