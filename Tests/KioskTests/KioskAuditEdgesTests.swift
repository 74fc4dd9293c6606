import AuditTestSupport
import BrowserTestSupport
import Foundation
import InventoryCore
import Testing
import TestKit

/// A connected kiosk at an audit's edges, against `audit-station serve` in a process of its own
/// on 127.0.0.1: it copies the audit it joins before it scans into it, so it records offline from
/// its first scan, also across a kill -9; it learns an audit ended elsewhere; and it says in plain
/// words why an audit cannot end yet.
@Suite("A connected kiosk at an audit's edges")
struct KioskAuditEdgesTests {
    static let tags = (1...20).map { String(format: "E-%02d", $0) }
    static let rows = tags.map { KioskProcess.Row(tag: $0, name: "Asset \($0)", country: "SG") }

    /// The server runs an audit of SG started at the server (the kiosk holds no copy of it), and
    /// the kiosk has joined it on its own (the only audit running).
    static func joinedKiosk() async throws -> (server: KioskProcess, kiosk: KioskProcess, auditID: String) {
        let (server, kiosk) = try await KioskProcess.connected(rows: rows)
        try await server.run(["audit", "start", "--country", "SG"])
        try await kiosk.start(["--no-camera"])
        let audit = try await waitForAudit(kiosk)
        return (server, kiosk, try #require(audit["id"] as? String))
    }

    /// The kiosk's audit, once it shows one.
    @discardableResult
    static func waitForAudit(_ kiosk: KioskProcess) async throws -> [String: Any] {
        var audit: [String: Any]?
        try await waitUntil("the kiosk shows the running audit") {
            audit = try await kiosk.call("GET", "/api/state").body["audit"] as? [String: Any]
            return audit != nil
        }
        return try #require(audit)
    }

    static func batch(_ tags: [String]) -> String {
        let scans = tags.map { #"{"identifier": "\#($0)", "scan_id": "scan-\#($0)"}"# }
        return #"{"scans": [\#(scans.joined(separator: ", "))]}"#
    }

    @Test(
        "Joined, then the server down: a burst of 20 is decided and kept here; after kill -9 the kiosk reopens on the audit and the server gets all 20"
    )
    func recordsOfflineFromItsFirstScan() async throws {
        let (server, kiosk, auditID) = try await Self.joinedKiosk()
        await server.kill()

        let answer = try await kiosk.call("POST", "/api/scans", json: Self.batch(Self.tags))
        #expect(answer.status == 200, "\(answer.text.prefix(400))")
        let results = answer.body["results"] as? [[String: Any]] ?? []
        #expect(results.map { $0["kind"] as? String } == Array(repeating: "result", count: 20), "\(answer.text.prefix(400))")
        #expect(results.allSatisfy { $0["status"] as? String == "found_expected" && $0["pending"] as? Bool == true })
        try await Self.waitUntil("20 scans waiting, offline") {
            let link = try await kiosk.call("GET", "/api/state").body["connection"] as? [String: Any]
            return link?["state"] as? String == "offline" && link?["pending_scans"] as? Int == 20 && link?["audit_pending_scans"] as? Int == 20
        }

        // Killed outright and started again while the server is still down: it reopens on the
        // audit its copy holds, and the page's resend of the same scans stores nothing twice.
        await kiosk.kill()
        try await kiosk.start(["--no-camera"])
        // Sent at once, as the page does when the kiosk answers again: a scan is never refused for
        // want of an audit while the kiosk is still opening it, only kept for later (503).
        var resent: [[String: Any]] = []
        try await Self.waitUntil("the resend answered") {
            let again = try await kiosk.call("POST", "/api/scans", json: Self.batch(Self.tags))
            #expect(again.status == 200 || again.status == 503, "\(again.text.prefix(400))")
            resent = again.body["results"] as? [[String: Any]] ?? []
            return again.status == 200
        }
        #expect(resent.map { $0["kind"] as? String } == Array(repeating: "result", count: 20), "\(resent.prefix(2))")
        #expect(resent.allSatisfy { $0["status"] as? String == "found_expected" }, "the first outcomes, not already scanned")
        let audit = try await Self.waitForAudit(kiosk)
        #expect(audit["id"] as? String == auditID)
        #expect(audit["is_active"] as? Bool == true)
        #expect(audit["scanned_count"] as? Int == 20)

        try await server.serve(port: server.port)
        try await Self.waitUntil("all 20 sent", timeout: 60) {
            let link = try await kiosk.call("GET", "/api/state").body["connection"] as? [String: Any]
            return link?["state"] as? String == "online" && link?["pending_scans"] as? Int == 0
        }
        let status = try jsonObject(try await server.run(["audit", "status", "--json"]))
        #expect((status["audit"] as? [String: Any])?["scanned_count"] as? Int == 20)
    }

    @Test(
        "Joined on the start screen: the copy is made before the scanning screen, so the next scan offline is kept; without the server no copy, no join"
    )
    func joinMakesTheCopy() async throws {
        let (server, kiosk) = try await KioskProcess.connected(rows: Self.rows + [KioskProcess.Row(tag: "M-01", name: "Phone", country: "MY")])
        try await server.run(["audit", "start", "--country", "SG"])
        try await server.run(["audit", "start", "--country", "MY"])
        try await kiosk.start(["--no-camera"])
        // Two audits run: the kiosk joins none until the page says which.
        var countries: [[String: Any]] = []
        try await Self.waitUntil("the running audits listed") {
            countries = try await kiosk.call("GET", "/api/state").body["countries"] as? [[String: Any]] ?? []
            return countries.filter { $0["active_audit_id"] is String }.count == 2
        }
        let id = { (country: String) in countries.first { $0["country"] as? String == country }?["active_audit_id"] as? String ?? "" }
        let joined = try await kiosk.call("POST", "/api/join", json: #"{"audit_id": "\#(id("SG"))"}"#)
        #expect(joined.status == 200, "\(joined.text)")
        await server.kill()
        let scan = try await kiosk.call("POST", "/api/scan", json: #"{"identifier": "E-01", "scan_id": "one"}"#)
        #expect(scan.status == 200, "\(scan.text)")
        #expect(scan.body["status"] as? String == "found_expected" && scan.body["pending"] as? Bool == true, "\(scan.text)")

        // The other audit, with no copy of it here and the server gone: the join is refused
        // and the kiosk stays on the audit it had.
        let other = try await kiosk.call("POST", "/api/join", json: #"{"audit_id": "\#(id("MY"))"}"#)
        #expect(other.status == 503, "\(other.text)")
        #expect((try await kiosk.call("GET", "/api/state").body["audit"] as? [String: Any])?["id"] as? String == id("SG"))
    }

    @Test("An audit ended at the server: within seconds the kiosk leaves the scanning screen and says it ended elsewhere")
    func learnsTheEnd() async throws {
        let (server, kiosk, auditID) = try await Self.joinedKiosk()
        let scan = try await kiosk.call("POST", "/api/scan", json: #"{"identifier": "E-01", "scan_id": "one"}"#)
        #expect(scan.status == 200, "\(scan.text)")
        try await Self.waitUntil("the scan sent") {
            (try await kiosk.call("GET", "/api/state").body["connection"] as? [String: Any])?["pending_scans"] as? Int == 0
        }
        try await server.run(["audit", "end", "--audit", auditID])
        var state: [String: Any] = [:]
        try await Self.waitUntil("the end learnt") {
            state = try await kiosk.call("GET", "/api/state").body
            return (state["audit"] as? [String: Any])?["is_active"] as? Bool == false
        }
        #expect(state["ended_elsewhere"] as? Bool == true)
        let after = try await kiosk.call("POST", "/api/scan", json: #"{"identifier": "E-02", "scan_id": "two"}"#)
        #expect(after.status == 409, "\(after.text)")
        #expect(!after.text.contains("`"), "no terminal command as advice: \(after.text)")
    }

    @Test("Scans the page held across the end, made before it, are kept and counted late by the server; one made after is refused")
    func heldScansMadeBeforeTheEndCount() async throws {
        let (server, kiosk, auditID) = try await Self.joinedKiosk()
        let before = ISOTime.string(Date())
        try await Task.sleep(for: .milliseconds(1100))
        try await server.run(["audit", "end", "--audit", auditID])
        try await Self.waitUntil("the end learnt") {
            (try await kiosk.call("GET", "/api/state").body["audit"] as? [String: Any])?["is_active"] as? Bool == false
        }
        // The page's queue, sent once the kiosk answers again: two scans made before the end,
        // one made now.
        let held = #"""
            {"scans": [{"identifier": "E-01", "scan_id": "held-1", "scanned_at": "\#(before)"},
                       {"identifier": "E-02", "scan_id": "held-2", "scanned_at": "\#(before)"},
                       {"identifier": "E-03", "scan_id": "after-1", "scanned_at": "\#(ISOTime.string(Date().addingTimeInterval(3)))"}]}
            """#
        let answer = try await kiosk.call("POST", "/api/scans", json: held)
        #expect(answer.status == 200, "\(answer.text.prefix(400))")
        let results = answer.body["results"] as? [[String: Any]] ?? []
        #expect(results.prefix(2).allSatisfy { $0["status"] as? String == "found_expected" }, "\(answer.text.prefix(600))")
        #expect(results.count == 3 && results[2]["kind"] as? String != "result", "the scan made after the end: \(results.last ?? [:])")

        let login = try await server.call(
            "POST", "/api/v1/auth/login", json: #"{"email": "ann@example.com", "password": "secret-pass", "device_name": "check"}"#)
        let token = try #require((login.body["data"] as? [String: Any])?["token"] as? String)
        var audit: [String: Any] = [:]
        try await Self.waitUntil("the two held scans on the server", timeout: 60) {
            let read = try await server.call("GET", "/api/v1/audit/\(auditID)", headers: ["Authorization": "Bearer \(token)"])
            audit = (read.body["data"] as? [String: Any])?["audit"] as? [String: Any] ?? [:]
            return audit["scanned_count"] as? Int == 2
        }
        #expect(audit["late_scan_count"] as? Int == 2 && audit["is_active"] as? Bool == false, "\(audit)")
    }

    @Test("END with scans waiting is refused in plain words, and the END confirmation's numbers say how many wait")
    func endWaitsForTheScans() async throws {
        let (server, kiosk, auditID) = try await Self.joinedKiosk()
        await server.kill()
        let answer = try await kiosk.call("POST", "/api/scans", json: Self.batch(Array(Self.tags.prefix(5))))
        #expect(answer.status == 200, "\(answer.text.prefix(300))")
        let end = try await kiosk.call("POST", "/api/end", json: #"{"audit_id": "\#(auditID)"}"#)
        #expect(end.status == 409, "\(end.text)")
        #expect(end.body["error"] as? String == "SCANS_WAITING")
        let message = end.body["message"] as? String ?? ""
        #expect(message.contains("5 scans are waiting for the server; the audit can end once they are sent"), "\(message)")
        #expect(!message.contains("audit-station") && !message.contains("`"), "\(message)")
        let link = try await kiosk.call("GET", "/api/state").body["connection"] as? [String: Any]
        #expect(link?["audit_pending_scans"] as? Int == 5)
        #expect((try await kiosk.call("GET", "/api/state").body["audit"] as? [String: Any])?["is_active"] as? Bool == true)
    }

    @Test("END names another station that still holds scans, in plain words, and END ANYWAY ends the audit")
    func endNamesTheStationsOut() async throws {
        let (server, kiosk, auditID) = try await Self.joinedKiosk()
        let login = try await server.call(
            "POST", "/api/v1/auth/login", json: #"{"email": "ann@example.com", "password": "secret-pass", "device_name": "dock-b"}"#)
        let token = try #require((login.body["data"] as? [String: Any])?["token"] as? String ?? login.body["token"] as? String)
        let report = try await server.call(
            "POST", "/api/v1/audit/\(auditID)/stations", json: #"{"device_name": "dock-b", "waiting": 3}"#,
            headers: ["Authorization": "Bearer \(token)"])
        #expect(report.status == 200, "\(report.text)")

        let end = try await kiosk.call("POST", "/api/end", json: #"{"audit_id": "\#(auditID)"}"#)
        #expect(end.status == 409 && end.body["error"] as? String == "STATIONS_OUT", "\(end.text)")
        let message = end.body["message"] as? String ?? ""
        #expect(message.contains("dock-b joined this audit and last synced") && message.contains("3 scans waiting"), "\(message)")
        #expect(message.contains("END ANYWAY") && !message.contains("--force"), "\(message)")
        #expect((try await kiosk.call("GET", "/api/state").body["audit"] as? [String: Any])?["is_active"] as? Bool == true)

        let forced = try await kiosk.call("POST", "/api/end", json: #"{"audit_id": "\#(auditID)", "force": true}"#)
        #expect(forced.status == 200, "\(forced.text)")
        #expect(((forced.body["summary"] as? [String: Any])?["audit"] as? [String: Any])?["is_active"] as? Bool == false)
    }

    /// How the server goes while the kiosk's END is on its way.
    enum ServerGone: String, CaseIterable, Sendable {
        /// Stopped (SIGSTOP): its sockets open, nothing answers; the kiosk still waits on it.
        case hanging
        /// Killed (kill -9) at the same moment as the kiosk.
        case killed
    }

    @Test(
        "END on its way, then the kiosk killed and the server hanging or killed at once: started again, the kiosk says what the server says, and no scan is lost",
        arguments: [(ServerGone.hanging, 700), (.killed, 0), (.killed, 40), (.killed, 150), (.killed, 700)])
    func killedWhileItsEndIsOnItsWay(server gone: ServerGone, afterMilliseconds delay: Int) async throws {
        let (server, kiosk, auditID) = try await Self.joinedKiosk()
        let sent = try await kiosk.call("POST", "/api/scans", json: Self.batch(Array(Self.tags.prefix(5))))
        #expect(sent.status == 200, "\(sent.text.prefix(300))")
        try await Self.waitUntil("5 scans sent") {
            let link = try await kiosk.call("GET", "/api/state").body["connection"] as? [String: Any]
            return link?["state"] as? String == "online" && link?["pending_scans"] as? Int == 0
        }
        if gone == .hanging { server.pause() }
        let ending = Task { _ = try? await kiosk.call("POST", "/api/end", json: #"{"audit_id": "\#(auditID)"}"#) }
        try await Task.sleep(for: .milliseconds(delay))
        if gone == .killed {
            async let serverKilled: Void = server.kill()
            async let kioskKilled: Void = kiosk.kill()
            _ = await (serverKilled, kioskKilled)
        } else {
            await kiosk.kill()
        }
        await ending.value
        if gone == .hanging { server.resume() } else { try await server.serve(port: server.port) }

        // The END may have reached the server before the kills, or not: either way the kiosk,
        // started again, says what the server says, and the server holds the 5 scans.
        try await kiosk.start(["--no-camera"])
        try await Self.waitUntil("the server answers again") { try await server.call("GET", "/health").status == 200 }
        let serverAudit = try await Self.serverAudit(server, auditID)
        #expect(serverAudit["scanned_count"] as? Int == 5, "\(serverAudit)")
        let endedAtServer = serverAudit["is_active"] as? Bool == false
        try await Self.waitUntil("the kiosk agrees with the server") {
            let audit = try await kiosk.call("GET", "/api/state").body["audit"] as? [String: Any]
            return endedAtServer ? audit?["is_active"] as? Bool != true : audit?["id"] as? String == auditID && audit?["scanned_count"] as? Int == 5
        }
        if !endedAtServer {
            let end = try await kiosk.call("POST", "/api/end", json: #"{"audit_id": "\#(auditID)"}"#)
            #expect(end.status == 200, "\(end.text)")
            let after = try await Self.serverAudit(server, auditID)
            #expect(after["is_active"] as? Bool == false && after["scanned_count"] as? Int == 5, "\(after)")
        }
    }

    /// The audit as the server's database holds it (`audit history --json` on its file).
    static func serverAudit(_ server: KioskProcess, _ id: String) async throws -> [String: Any] {
        let history = try jsonObject(try await server.run(["audit", "history", "--json"]))
        return (history["audits"] as? [[String: Any]])?.first { $0["id"] as? String == id } ?? [:]
    }

    static func waitUntil(_ what: String, timeout: Double = 30, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw KioskTestError("timed out waiting until \(what)") }
            try await Task.sleep(for: .milliseconds(200))
        }
    }
}
