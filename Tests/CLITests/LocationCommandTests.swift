import Foundation
import TestKit
import Testing

/// Locations on the command line: an audit narrowed to some, where the station stands
/// (`--location`), location labels scanned among the tags, and the misplaced list.
@Suite struct LocationCommandTests {
    @Test func labelsMoveTheStationAndAssetsFoundAwayAreMisplaced() async throws {
        let scratch = try StationProcess.scratch()
        let database = scratch.database
        let file = scratch.folder.appendingPathComponent("inventory.csv")
        try CSVFixture("asset_tag", "name", "country", "location")
            .rows([("A-1", "Dock A"), ("A-2", "Dock A"), ("B-1", "Dock B"), ("C-1", "Dock C")]) { [$0.0, "Laptop", "SG", $0.1] }.write(to: file)
        #expect(try await StationProcess.run(["--database", database, "assets", "import", file.path]).status == 0)
        let listed = try await StationProcess.run(["--database", database, "audit", "locations", "--country", "sg", "--json"])
        #expect(listed.stdout.contains(#""location":"Dock A""#) && listed.stdout.contains(#""expected_assets":2"#))

        let unknown = try await StationProcess.run(["--database", database, "audit", "start", "--country", "SG", "--location", "Dock Z"])
        #expect(unknown.status != 0 && unknown.stderr.contains("'Dock Z' is not a location of SG"))
        let started = try await StationProcess.run(
            ["--database", database, "audit", "start", "--country", "SG", "--location", "Dock A", "--location", "Dock B", "--json"])
        let audit = try jsonObject(started.stdout)
        #expect(started.status == 0 && audit["total_assets"] as? Int == 3)

        let input = "A-1\nLOC:Dock B\nA-2\nLOC:Nowhere\nB-1\nC-1\n"
        let scanned = try await StationProcess.run(
            ["--database", database, "audit", "scan", "--location", "Dock A", "--json"], input: Data(input.utf8))
        let objects = try scanned.lines.map(jsonObject)
        let scans = objects.filter { $0["progress"] != nil }
        #expect(scans.map { $0["identifier"] as? String } == ["A-1", "A-2", "B-1", "C-1"], "a location label is never a scan")
        #expect(scans[0]["misplaced"] == nil && scans[1]["misplaced"] as? Bool == true && scans[2]["misplaced"] == nil)
        #expect(scans[1]["registered_location"] as? String == "Dock A" && scans[1]["found_location"] as? String == "Dock B")
        #expect(scans[3]["reason"] as? String == "other_location")
        let refused = objects.filter { $0["progress"] == nil }
        let refusal = refused.first?["message"] as? String ?? ""
        #expect(refused.count == 1 && refusal.contains("'Nowhere' is not a location of SG"), "the unknown label is refused aloud: \(refusal)")

        let misplaced = try await StationProcess.run(["--database", database, "audit", "details", "misplaced"])
        #expect(misplaced.stdout.contains("A-2") && misplaced.stdout.contains("misplaced (at Dock B") && !misplaced.stdout.contains("A-1"))
    }
}
