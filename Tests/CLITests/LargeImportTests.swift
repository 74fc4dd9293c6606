import Foundation
import GRDB
import TestKit
import Testing

/// `assets import` of a file larger than a block (1 MiB) and a chunk (10,000 rows), through the
/// real command line on a real SQLite file.
@Suite struct LargeImportTests {
    /// `count` rows after the header: row n is on line n + 2, tag L-n, serial LSN-n, in one of 40 warehouses.
    static func csv(_ count: Int) -> CSVFixture {
        CSVFixture("asset_tag", "serial_num", "name", "country", "location")
            .assets(0..<count, tag: "L-", serial: "LSN-", name: { "Laptop \($0) with a longer name" }, locations: (0..<40).map { "Warehouse \($0)" })
    }

    static func assetCount(_ database: String) throws -> Int { try count("assets", in: database) }

    static func count(_ table: String, in database: String) throws -> Int {
        try DatabaseQueue(path: database).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM \(table)") ?? -1 }
    }

    /// Writes `csv` into the scratch folder as `name`, runs `assets import` of it on the scratch's
    /// database, and expects it to succeed.
    static func importWhole(_ csv: CSVFixture, as name: String, into scratch: (folder: URL, database: String)) async throws {
        let file = scratch.folder.appendingPathComponent(name)
        try csv.write(to: file)
        let imported = try await StationProcess.run(["--database", scratch.database, "assets", "import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        if size >= 1 << 20 { #expect(imported.stderr.contains(" MiB (100%)"), "progress in MiB: \(imported.stderr)") }
    }

    @Test func badRowsInSeveralChunksAreListedAndTheFixedFileImportsWhole() async throws {
        let scratch = try StationProcess.scratch()
        let file = scratch.folder.appendingPathComponent("large.csv")
        let bad = [7: "L-X7,,Laptop,XX,", 15_000: "L-3,,Laptop,SG,", 29_999: "L-X29999,LSN-10,Laptop,SG,", 30_001: "L-Y,\"open"]
        let text = Self.csv(30_000).replacing(bad).text
        #expect(text.utf8.count > 1 << 20)
        try text.write(to: file, atomically: true, encoding: .utf8)
        let failed = try await StationProcess.run(["--database", scratch.database, "assets", "import", file.path])
        #expect(failed.status != 0)
        for expected in [
            "line 7: country", "line 15000: asset_tag 'L-3' repeats line 5", "line 29999: serial_num 'LSN-10' repeats line 12",
            "line 30001: opens a quoted field that never closes"
        ] {
            #expect(failed.stderr.contains(expected), "\(expected) in \(failed.stderr)")
        }
        #expect(try Self.assetCount(scratch.database) == 0)

        try Self.csv(30_000).write(to: file)
        let imported = try await StationProcess.run(["--database", scratch.database, "assets", "import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported 30000 assets"))
        // The command copied its rows from the WAL into the file before it ended, and left the
        // search index's catch-up to the next process that serves the file.
        let file30k = try FileManager.default.attributesOfItem(atPath: scratch.database)[.size] as? Int ?? 0
        #expect(file30k > 3_000_000, "the rows are in the database file, not only in its WAL")
        #expect(try Self.assetCount(scratch.database) == 30_000)
        #expect(try Self.count("assets_fts_paused", in: scratch.database) == 1, "the search index waits for the rows")
    }

    /// A standalone kiosk on a file an `assets import` filled indexes its rows for search in the
    /// background, as a server would: the import left them to the next process that serves it.
    @Test func aStandaloneKioskIndexesTheRowsAnImportLeft() async throws {
        let scratch = try StationProcess.scratch()
        try await Self.importWhole(Self.csv(25_000), as: "inventory.csv", into: scratch)
        #expect(try Self.count("assets_fts_paused", in: scratch.database) == 1)

        let kiosk = try await Child.start(
            StationProcess.executable.path, ["--database", scratch.database, "kiosk", "--no-camera", "--port", "0"],
            log: scratch.folder.appendingPathComponent("kiosk.log"))
        let deadline = ContinuousClock.now + .seconds(60)
        while try Self.count("assets_fts_paused", in: scratch.database) > 0, ContinuousClock.now < deadline, kiosk.isRunning {
            try await Task.sleep(for: .milliseconds(100))
        }
        await kiosk.kill9()
        #expect(try Self.count("assets_fts_paused", in: scratch.database) == 0, "the kiosk indexed the rows: \(kiosk.logText.suffix(500))")
        #expect(try Self.count("assets_fts WHERE assets_fts MATCH '\"LSN-24999\"'", in: scratch.database) == 1)
    }

    /// `assets import` alone on the file writes through a rollback journal (`AppDatabase.writingAlone`):
    /// killed mid-import, it leaves a hot journal, which the next command rolls back before it
    /// reads, keeping the rows from before and nothing of the import, with the file in WAL mode.
    @Test func anImportKilledMidwayLeavesTheInventoryAsItWas() async throws {
        let scratch = try StationProcess.scratch()
        try await Self.importWhole(Self.csv(10), as: "small.csv", into: scratch)
        let big = scratch.folder.appendingPathComponent("big.csv")
        try CSVFixture("asset_tag", "serial_num", "name", "country", "location")
            .assets(10..<400_010, tag: "L-", serial: "LSN-", locations: ["Dock A", "Dock B"]).write(to: big)

        // Killed once its pages outgrow its cache (64 MiB) and spill into the file beyond the
        // file's old end: the rollback must take those away too.
        func size(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
        let before = size(scratch.database)
        let importing = try await Child.start(
            StationProcess.executable.path, ["--database", scratch.database, "assets", "import", big.path],
            log: scratch.folder.appendingPathComponent("import.log"))
        let deadline = ContinuousClock.now + .seconds(120)
        while size(scratch.database) < before + 4_000_000, importing.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(importing.isRunning, "the import was still running when its pages reached the file: \(importing.logText.suffix(300))")
        await importing.kill9()
        #expect(size(scratch.database + "-journal") > 0, "the kill left a hot journal")

        let listed = try await StationProcess.run(["--database", scratch.database, "assets", "list"])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("10 in all"), "\(listed.stdout.suffix(200))")
        #expect(try Self.assetCount(scratch.database) == 10)
        let mode = try await DatabaseQueue(path: scratch.database).read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")

        #expect(size(scratch.database) < before + 1_000_000, "the rollback took the import's pages out of the file")
        try await Self.importWhole(
            CSVFixture("asset_tag", "serial_num", "name", "country", "location").assets(10..<20, tag: "L-", serial: "LSN-"), as: "more.csv",
            into: scratch)
        #expect(try Self.assetCount(scratch.database) == 20)
    }
}
