import Foundation
import GRDB
import InventoryCore
import InventoryStore
import TestKit
import Testing

/// A standalone station driven through its command line, on real SQLite files.
@Suite struct ManualScanTests {
    /// A database with SG and MY assets and a running audit of SG.
    static func prepared(assets: Int = 20) async throws -> (folder: URL, database: String) {
        let scratch = try StationProcess.scratch()
        let file = scratch.folder.appendingPathComponent("inventory.csv")
        try CSVFixture("asset_tag", "serial_num", "name", "country", "status").assets(1...assets, tag: "SG-", serial: "SN-SG-")
            .row("MY-1", "SN-MY-1", "Laptop MY", "MY", "IN_STOCK").row("SG-ARCH", "", "Old laptop", "SG", "ARCHIVED")
            .write(to: file)
        let imported = try await StationProcess.run(["--database", scratch.database, "assets", "import", file.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        let whole = size < 1024 ? "Read \(size) B of \(size) B (100%)" : " KiB (100%)"
        #expect(imported.stderr.contains(whole), "progress in bytes: \(imported.stderr)")
        let started = try await StationProcess.run(["--database", scratch.database, "audit", "start", "--country", "sg", "--user", "alice"])
        #expect(started.status == 0, "\(started.stderr)")
        return scratch
    }

    static func scanCount(_ database: String) throws -> Int {
        let queue = try DatabaseQueue(path: database)
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM scans") ?? -1 }
    }

    @Test func pipedTagsGiveEachOutcomeAsJSONLines() async throws {
        let (_, database) = try await Self.prepared()
        let input = "SG-1\nSG-1\nMY-1\nSN-SG-2\nSG-ARCH\nNOPE-1\n\n   \n"
        let result = try await StationProcess.run(["--database", database, "audit", "scan", "--json", "--user", "bob"], input: Data(input.utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let objects = try result.lines.map(jsonObject)
        #expect(
            objects.map { $0["status"] as? String } == ["found_expected", "already_scanned", "unexpected", "found_expected", "unexpected", "unknown"])
        #expect(objects.map { $0["identifier"] as? String } == ["SG-1", "SG-1", "MY-1", "SN-SG-2", "SG-ARCH", "NOPE-1"])
        #expect(objects[2]["reason"] as? String == "other_country")
        #expect(objects[4]["reason"] as? String == "archived")
        let firstScan = try #require(objects[1]["first_scan"] as? [String: Any])
        #expect(firstScan["user"] as? String == "bob")
        let progress = try #require(objects.last?["progress"] as? [String: Any])
        #expect(progress["total_assets"] as? Int == 20)
        #expect(progress["scanned_count"] as? Int == 2)
        #expect(progress["missing_count"] as? Int == 18)
        #expect(progress["unexpected_count"] as? Int == 3)
        #expect(progress["completion_percentage"] as? Double == 10)
        #expect(try Self.scanCount(database) == 6)
    }

    @Test func tagsGivenAsArgumentsAreScannedInOrderAndAnEmptyOneIsRefused() async throws {
        let (_, database) = try await Self.prepared(assets: 3)
        // Standard input is not read when tags are given: its line would be a fourth scan.
        let result = try await StationProcess.run(
            ["--database", database, "audit", "scan", "--json", "SG-1", "SG-1", "", "NOPE-1", "SG\u{01}2"], input: Data("SG-3\n".utf8))
        #expect(result.status == 2, "refused arguments make the exit status 2: \(result.stderr)")
        let objects = try result.lines.map(jsonObject)
        #expect(objects.map { $0["status"] as? String } == ["found_expected", "already_scanned", "error", "unknown", "error"])
        #expect((objects[2]["message"] as? String)?.contains("argument 3") == true, "\(objects[2])")
        #expect((objects[4]["message"] as? String)?.contains("control character") == true, "\(objects[4])")
        #expect(try Self.scanCount(database) == 3)

        let plain = try await StationProcess.run(["--database", database, "audit", "scan", "SG-2"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout.contains("SG-2"), "\(plain.stdout)")
        #expect(try Self.scanCount(database) == 4)
    }

    @Test(arguments: [
        ("control character inside", Data("SG\u{01}1\n".utf8), "control character"),
        ("ten kilobyte tag", Data((String(repeating: "A", count: 10_000) + "\n").utf8), "128"),
        ("bytes that are not UTF-8", Data([0x53, 0x47, 0xFF, 0xFE, 0x0A]), "not UTF-8"),
        ("a megabyte on one line", Data(repeating: 0x41, count: 1_000_000) + Data([10]), "too long")
    ])
    func badInputIsRefusedAndStoresNothing(_ name: String, _ input: Data, _ expected: String) async throws {
        let (_, database) = try await Self.prepared(assets: 3)
        let result = try await StationProcess.run(["--database", database, "audit", "scan", "--json"], input: input + Data("SG-2\n".utf8))
        #expect(result.status == 2, "a refused input makes the exit status 2")
        let objects = try result.lines.map(jsonObject)
        #expect(objects.count == 2)
        #expect(objects.first?["status"] as? String == "error")
        #expect((objects.first?["message"] as? String)?.contains(expected) == true, "\(objects.first ?? [:])")
        #expect(objects.last?["status"] as? String == "found_expected", "the run goes on after bad input")
        #expect(try Self.scanCount(database) == 1)
    }

    @Test func unknownCountryIsAClearErrorAndStartsNothing() async throws {
        let scratch = try StationProcess.scratch()
        let result = try await StationProcess.run(["--database", scratch.database, "audit", "start", "--country", "XX"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("'XX' is not an ISO 3166-1 alpha-2 country code"))
        #expect(result.stderr.split(separator: "\n").count == 1, "one clear line: \(result.stderr)")
        let status = try await StationProcess.run(["--database", scratch.database, "audit", "status", "--json"])
        #expect(try jsonObject(status.stdout)["active"] as? Bool == false)
    }

    @Test func scansAfterTheEndAreRefused() async throws {
        let (_, database) = try await Self.prepared(assets: 2)
        #expect(try await StationProcess.run(["--database", database, "audit", "end"]).status == 0)
        let result = try await StationProcess.run(["--database", database, "audit", "scan"], input: Data("SG-1\n".utf8))
        #expect(result.status != 0)
        #expect(result.stderr.contains("No audit is running"))
        #expect(try Self.scanCount(database) == 0)
    }

    @Test func badImportListsLinesAndImportsNothing() async throws {
        let scratch = try StationProcess.scratch()
        let file = scratch.folder.appendingPathComponent("bad.csv")
        try CSVFixture("asset_tag", "name", "country", "status")
            .row("A-1", "One", "SG", "IN_STOCK").row("A-2", "", "SG", "IN_STOCK").row("A-1", "Dup", "SG", "IN_STOCK")
            .row("A-4", "Four", "QQ", "IN_STOCK").row("A-5", "Five", "SG", "BROKEN")
            .write(to: file)
        let result = try await StationProcess.run(["--database", scratch.database, "assets", "import", file.path])
        #expect(result.status != 0)
        for line in ["line 3:", "line 4:", "line 5:", "line 6:"] { #expect(result.stderr.contains(line), "\(line) in \(result.stderr)") }
        #expect(!result.stderr.contains("line 2:"))
        let list = try await StationProcess.run(["--database", scratch.database, "assets", "list", "--json"])
        let pagination = try #require(try jsonObject(list.stdout)["pagination"] as? [String: Any])
        #expect(pagination["total"] as? Int == 0)
    }

    @Test func reportsAreWrittenForARunningAudit() async throws {
        let (folder, database) = try await Self.prepared(assets: 3)
        _ = try await StationProcess.run(["--database", database, "audit", "scan"], input: Data("SG-1\n=cmd|'/c calc'!A1\n".utf8))
        let csvPath = folder.appendingPathComponent("r.csv").path
        let csv = try await StationProcess.run(["--database", database, "audit", "report", "--format", "csv", "--output", csvPath])
        #expect(csv.status == 0, "\(csv.stderr)")
        let text = try String(contentsOfFile: csvPath, encoding: .utf8)
        #expect(
            text.hasPrefix(
                "identifier,asset_tag,serial_num,name,model,status,location,country,asset_type,company,outcome,reason,found_location,first_scanned_at,scan_count,voided_scans,station,user,source,arrived_late_at\r\n"
            ))
        // Into a folder, the report takes its standard name.
        let named = try await StationProcess.run(["--database", database, "audit", "report", "--format", "json", "--output", folder.path])
        #expect(named.status == 0, "\(named.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("audit-SG-") && $0.hasSuffix(".json") }
        #expect(files.count == 1 && files[0].count == "audit-SG-2026-01-01-12345678.json".count, "\(files)")
        #expect(text.contains("'=cmd|'/c calc'!A1"), "formula cells are escaped")
        #expect(text.split(separator: "\r\n").count == 5)
        let json = try await StationProcess.run(["--database", database, "audit", "report", "--format", "json"])
        let object = try jsonObject(json.stdout)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["scanned_count"] as? Int == 1)
        #expect(summary["unexpected_count"] as? Int == 1)
        #expect((object["assets"] as? [Any])?.count == 4)
    }

    @Test func demoRunsAWholeAuditAndWritesBothReports() async throws {
        let scratch = try StationProcess.scratch()
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let result = try await StationProcess.run(["demo", "--output", scratch.folder.path], directory: packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("FOUND"))
        #expect(result.stdout.contains("ALREADY SCANNED"))
        #expect(result.stdout.contains("registered in MY"))
        #expect(result.stdout.contains("Unknown"))
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.folder.path)
        #expect(files.contains { $0.hasSuffix(".csv") })
        let jsonFile = try #require(files.first { $0.hasSuffix(".json") })
        let report = try jsonObject(String(contentsOfFile: scratch.folder.appendingPathComponent(jsonFile).path, encoding: .utf8))
        let summary = try #require(report["summary"] as? [String: Any])
        #expect(summary["ended_by"] as? String == "demo-auditor")
        // 22 sample laptops and 2 labelled assets are expected in SG; the label photos add two
        // found assets and one asset registered in MY.
        #expect(summary["total_assets"] as? Int == 24)
        #expect(summary["scanned_count"] as? Int == 17)
        #expect(summary["unexpected_count"] as? Int == 4)
        #expect(result.stdout.contains("none-01-white.png") == false, "an image without a code is a note on stderr")
        #expect(result.stderr.contains("none-01-white.png: no code found"))
    }
}
