import Foundation
import Testing

/// `audit void` on a standalone station: the scan id from `audit scans`, the void in the trail,
/// and the refusals with their exit status.
@Suite struct VoidCommandTests {
    @Test func aScanIsVoidedByItsIdAndTheTrailSaysWhoAndWhy() async throws {
        let (_, database) = try await ManualScanTests.prepared(assets: 3)
        let scanned = try await StationProcess.run(["--database", database, "audit", "scan", "--json", "--user", "bob"], input: Data("SG-1\n".utf8))
        let line = try #require(scanned.lines.first)
        let scanID = try #require(try jsonObject(line)["scan_id"] as? String)
        let voided = try await StationProcess.run(
            ["--database", database, "audit", "void", scanID, "--reason", "wrong shelf", "--user", "carol", "--json"])
        #expect(voided.status == 0, "\(voided.stderr)")
        let answer = try jsonObject(voided.stdout)
        #expect((answer["progress"] as? [String: Any])?["scanned_count"] as? Int == 0)
        #expect((answer["void"] as? [String: Any])?["user"] as? String == "carol")
        let trail = try await StationProcess.run(["--database", database, "audit", "scans"])
        #expect(trail.stdout.contains(scanID) && trail.stdout.contains("by carol") && trail.stdout.contains("wrong shelf"))

        let missing = try await StationProcess.run(["--database", database, "audit", "void", "no-such-scan"])
        #expect(missing.status != 0 && missing.stderr.contains("Not found: scan no-such-scan"))
        _ = try await StationProcess.run(["--database", database, "audit", "end"])
        let ended = try await StationProcess.run(["--database", database, "audit", "void", scanID, "--reason", "again", "--json"])
        #expect(ended.status == 0, "\(ended.stderr)")
        let again = try jsonObject(ended.stdout)
        #expect(again as NSDictionary == answer as NSDictionary, "a void stored before answers exactly as it did: \(ended.stdout)")
    }
}
