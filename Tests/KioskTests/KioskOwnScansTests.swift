import AuditTestSupport
import BrowserTestSupport
import Foundation
import Testing
import TestKit

/// A connected kiosk's last scans after a restart, against a server of the seeds' API alone
/// (it keeps no trail the kiosk could read back): the station's own scans come from its outbox,
/// a scan the server refused still shown refused, one it has not had yet still "to sync".
@Suite("A connected kiosk's own scans survive a restart")
struct KioskOwnScansTests {
    @Test func refusedAndStoredScansAreListedAfterARestart() async throws {
        try await SpecServer.with { server in
            await server.audits.add(tag: "S-1", country: "SG")
            await server.audits.add(tag: "S-2", country: "SG")
            await server.audits.refuseScans(of: "S-1")
            let kiosk = try await KioskProcess.connected(to: server)
            try await Self.joined(kiosk)
            for (tag, id) in [("S-1", "scan-one"), ("S-2", "scan-two")] {
                let answer = try await kiosk.call("POST", "/api/scan", json: #"{"identifier": "\#(tag)", "scan_id": "\#(id)"}"#)
                #expect(answer.status == 200, "\(answer.text)")
            }
            // The server has both: one stored, one refused.
            try await Self.waitUntil("the server answered both scans") {
                try await kiosk.run(["audit", "status"]).contains("1 synced, 1 refused")
            }
            #expect(await server.audits.stored.count == 1)

            await kiosk.stop()
            try await kiosk.start(["--no-camera"])
            try await Self.joined(kiosk)
            let state = try await kiosk.call("GET", "/api/state")
            let recent = try #require(state.body["recent"] as? [[String: Any]], "\(state.text)")
            let rows = recent.map { row in
                [row["scan_id"] as? String ?? "-", row["kind"] as? String ?? "-", row["status"] as? String ?? row["error"] as? String ?? "-"]
                    .joined(separator: " ")
            }
            #expect(rows == ["scan-two result found_expected", "scan-one rejected REFUSED_BY_SERVER"], "\(state.text)")
            let refused = try #require(recent.last)
            #expect((refused["message"] as? String)?.contains("The server refused this scan") == true)
            #expect(recent.first?["asset_name"] as? String == "Laptop S-2")
        }
    }

    /// Waits until the kiosk scans into the running audit (it joins it once it has started).
    static func joined(_ kiosk: KioskProcess) async throws {
        try await waitUntil("the kiosk joined the audit") { try await kiosk.call("GET", "/api/state").body["audit"] is [String: Any] }
    }

    static func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw KioskTestError("timed out waiting until \(what)") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
