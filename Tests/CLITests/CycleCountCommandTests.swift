import Foundation
import TestKit
import Testing

/// The cycle-count commands on a standalone station: `assets show` and `assets list
/// --not-audited-since`, an accessory's tag and location, its scans and `audit count`, and the
/// accessories in the report.
@Suite struct CycleCountCommandTests {
    @Test func anAuditCountsAccessoriesAndStampsTheAssetsItFound() async throws {
        let scratch = try StationProcess.scratch()
        let database = scratch.database
        let file = scratch.folder.appendingPathComponent("inventory.csv")
        try CSVFixture("asset_tag", "name", "country").assets(1...2, tag: "SG-").write(to: file)
        #expect(try await StationProcess.run(["--database", database, "assets", "import", file.path]).status == 0)
        let created = try await StationProcess.run([
            "--database", database, "accessories", "create", "--name", "Cable", "--category", "Cables", "--total-quantity", "5",
            "--country", "SG", "--tag", "CABLE", "--location", "Dock A"
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let clash = try await StationProcess.run([
            "--database", database, "accessories", "create", "--name", "X", "--category", "Misc", "--tag", "SG-1"
        ])
        #expect(clash.status != 0 && clash.stderr.contains("tag"), "\(clash.stderr)")
        #expect(try await StationProcess.run(["--database", database, "audit", "start", "--country", "SG", "--user", "ann"]).status == 0)

        let scanned = try await StationProcess.run(
            ["--database", database, "audit", "scan", "--json", "--user", "ann", "--location", "Dock A"], input: Data("SG-1\nCABLE\nCABLE\n".utf8))
        #expect(scanned.status == 0, "\(scanned.stderr)")
        let lines = try scanned.lines.map { try jsonObject($0) }
        #expect(lines.map { $0["status"] as? String } == ["found_expected", "accessory_counted", "accessory_counted"])
        #expect((lines.last?["accessory"] as? [String: Any])?["counted"] as? Int == 2)

        let counted = try await StationProcess.run(
            ["--database", database, "audit", "count", "CABLE", "4", "--location", "Dock B", "--user", "ann", "--json"])
        #expect(counted.status == 0, "\(counted.stderr)")
        let answer = try jsonObject(counted.stdout)
        #expect(answer["counted_here"] as? Int == 4 && (answer["accessory"] as? [String: Any])?["counted"] as? Int == 6)
        let text = try await StationProcess.run(["--database", database, "audit", "count", "CABLE", "3", "--location", "Dock B"])
        #expect(text.stdout.contains("Cable (CABLE): 3 counted at Dock B, 5 of 5 in all"), "\(text.stdout)")
        let unknown = try await StationProcess.run(["--database", database, "audit", "count", "NOPE", "1"])
        #expect(unknown.status != 0 && unknown.stderr.contains("NOPE"))

        let before = try await StationProcess.run(["--database", database, "assets", "show", "SG-1"])
        #expect(before.stdout.contains("last_audited") && before.stdout.contains("never"), "a running audit stamps nothing: \(before.stdout)")
        #expect(try await StationProcess.run(["--database", database, "audit", "end"]).status == 0)
        let after = try await StationProcess.run(["--database", database, "assets", "show", "SG-1", "--json"])
        #expect(try jsonObject(after.stdout)["last_audited_at"] is String, "\(after.stdout)")

        let stale = try await StationProcess.run(["--database", database, "assets", "list", "--not-audited-since", "180d", "--json"])
        #expect(stale.status == 0, "\(stale.stderr)")
        let tags = ((try jsonObject(stale.stdout)["assets"] as? [[String: Any]]) ?? []).compactMap { $0["asset_tag"] as? String }
        #expect(tags == ["SG-2"])
        let table = try await StationProcess.run(["--database", database, "assets", "list", "--not-audited-since", "2100-01-01"])
        #expect(table.stdout.contains("LAST AUDITED") && table.stdout.contains("never"), "\(table.stdout)")
        let bad = try await StationProcess.run(["--database", database, "assets", "list", "--not-audited-since", "soon"])
        #expect(bad.status != 0 && bad.stderr.contains("not-audited-since"), "\(bad.stderr)")

        let report = try await StationProcess.run(["--database", database, "audit", "report", "--format", "json", "--audit", try auditID(database)])
        let accessories = try #require(try jsonObject(report.stdout)["accessories"] as? [[String: Any]])
        #expect(accessories.count == 1 && accessories[0]["counted"] as? Int == 5 && accessories[0]["expected"] as? Int == 5)
        #expect(accessories[0]["difference"] as? Int == 0 && accessories[0]["location"] as? String == "Dock A")
    }

    private func auditID(_ database: String) async throws -> String {
        let history = try await StationProcess.run(["--database", database, "audit", "history", "--json"])
        let object = try jsonObject(history.stdout)
        let audits = (object["audits"] as? [[String: Any]]) ?? []
        return try #require(audits.first?["id"] as? String, "\(history.stdout)")
    }
}
