import AuditTestSupport
import Foundation
import InventoryCore
import Testing
import TestKit

/// Connected stations are named on the server as they logged in (`--device-name`), not by
/// their host: two stations on one host are two rows. `audit scans` reads the server's trail,
/// and `audit end` names a station still out and ends only with `--force`.
@Suite("Connected stations' names, trail and end, at the terminal")
struct StationNameCommandTests {
    @Test func stationsAreNamedAsTheyLoggedIn() async throws {
        try await TestServer.with(.sqlite) { server in
            _ = try await server.user("lead@example.com")
            try await server.seed([("A1", "SG"), ("A2", "SG"), ("A3", "SG")])
            var stations: [String] = []
            // Both run on this host with no configured name: only their login tells them apart.
            for (name, tag) in [("kiosk-a", "A1"), ("kiosk-b", "A2")] {
                let (_, station) = try StationProcess.scratch()
                stations.append(station)
                let login = try await StationProcess.run(
                    [
                        "--database", station, "login", "--server", server.baseURL, "--email", "lead@example.com", "--device-name", name,
                        "--password-stdin"
                    ],
                    input: Data("secret-pass\n".utf8))
                #expect(login.status == 0, "\(login.stderr)")
                if stations.count == 1 {
                    let started = try await StationProcess.run(["--database", station, "audit", "start", "--country", "SG"])
                    #expect(started.status == 0, "\(started.stderr)")
                }
                // The second station joins as it first scans: it waits two seconds for the server,
                // which a machine busy with the whole suite can exceed; the station says to scan again.
                var scan = try await StationProcess.run(
                    ["--database", station, "audit", "scan", "--sync-before-exit", "10"], input: Data("\(tag)\n".utf8))
                for _ in 0..<3 where scan.status != 0 && scan.stderr.contains("scan again when it is back") {
                    scan = try await StationProcess.run(
                        ["--database", station, "audit", "scan", "--sync-before-exit", "10"], input: Data("\(tag)\n".utf8))
                }
                #expect(scan.status == 0, "\(scan.stdout)\(scan.stderr)")
            }
            let audit = try #require(try await server.parts.backend.audits.activeAudits().first)
            let summary = try await server.parts.backend.audits.breakdown(auditID: audit.id)
            #expect(summary.byStation.map(\.name).sorted() == ["kiosk-a", "kiosk-b"], "\(summary.byStation)")
            let heard = try await server.parts.backend.audits.stations(auditID: audit.id)
            #expect(heard.map(\.station) == ["kiosk-a", "kiosk-b"] && heard.allSatisfy { ($0.waiting ?? 0) == 0 })

            // The trail, read through the server by a connected station.
            let trail = try await StationProcess.run(["--database", stations[0], "audit", "scans", "--audit", audit.id])
            #expect(trail.status == 0, "\(trail.stderr)")
            #expect(trail.stdout.contains("A1") && trail.stdout.contains("A2") && trail.stdout.contains("kiosk-b"), "\(trail.stdout)")

            // kiosk-b says 4 scans wait: the end names it, and goes through only with --force.
            try await server.parts.backend.audits.heard(StationReport(auditID: audit.id, station: "kiosk-b", user: "lead", waiting: 4))
            let refused = try await StationProcess.run(["--database", stations[0], "audit", "end", "--audit", audit.id])
            #expect(refused.status != 0, "\(refused.stdout)")
            #expect(
                refused.stderr.contains("kiosk-b joined this audit and last synced") && refused.stderr.contains("4 scans waiting"),
                "\(refused.stderr)")
            #expect(try await server.parts.backend.audits.audit(id: audit.id).isActive)
            let forced = try await StationProcess.run(["--database", stations[0], "audit", "end", "--audit", audit.id, "--force"])
            #expect(forced.status == 0, "\(forced.stderr)")
            #expect(try await !server.parts.backend.audits.audit(id: audit.id).isActive)
        }
    }
}
