import AuditTestSupport
import Foundation
import Testing
import TestKit

/// `audit scan` on a station connected to a server of the seeds' API that refuses a tag by its
/// own rule: the scan is shown found from the station's copy, then, once the server refused it,
/// not recorded, on a line that names the same scan.
@Suite("A scan the server refuses, at the terminal")
struct ServerRefusalCommandTests {
    @Test func theRefusalNamesTheScanItReplaces() async throws {
        try await SpecServer.with { server in
            await server.audits.add(tag: "S-1", country: "SG")
            await server.audits.add(tag: "S-2", country: "SG")
            await server.audits.refuseScans(of: "S-1")
            let (_, station) = try StationProcess.scratch()
            let login = try await StationProcess.run(
                ["--database", station, "login", "--server", server.baseURL, "--email", "jane@example.com", "--password-stdin"],
                input: Data((SpecAudits.password + "\n").utf8))
            #expect(login.status == 0, "\(login.stderr)")
            #expect(try await StationProcess.run(["--database", station, "audit", "start", "--country", "SG"]).status == 0)
            let scanned = try await StationProcess.run(
                ["--database", station, "audit", "scan", "--json", "--sync-before-exit", "10"], input: Data("S-1\nS-2\n".utf8))
            let objects = try scanned.lines.map(jsonObject)
            let found = try #require(objects.first { $0["identifier"] as? String == "S-1" && $0["status"] as? String == "found_expected" })
            let refused = try #require(
                objects.first { $0["identifier"] as? String == "S-1" && $0["status"] as? String == "error" }, "\(scanned.stdout)\(scanned.stderr)")
            #expect(refused["error"] as? String == "REFUSED_BY_SERVER")
            #expect(refused["scan_id"] as? String == found["scan_id"] as? String && found["scan_id"] is String)
            #expect(objects.contains { $0["identifier"] as? String == "S-2" && $0["status"] as? String == "found_expected" })
            #expect(await server.audits.stored.count == 1)
        }
    }
}
