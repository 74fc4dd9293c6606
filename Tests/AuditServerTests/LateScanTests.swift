import AuditTestSupport
import Foundation
import InventoryCore
import Testing

/// An audit's end is a moment in time: scans made before it count whenever they arrive
/// (`LateScans`), judged on the server's clock when the station sends its own; whoever ends an
/// audit is told which stations may still hold scans of it (`AuditStation`). Over real sockets,
/// on both back ends.
@Suite("Late scans and the stations still out at an audit's end")
struct LateScanTests {
    private struct Batch {
        var scans: [(identifier: String, scanID: String, at: Date)]
        var auditID: String
        var clock: Date?
        var device: String? = nil
        var waiting: Int? = nil

        var json: String {
            let items = scans.map {
                #"{"identifier":"\#($0.identifier)","scan_id":"\#($0.scanID)","audit_id":"\#(auditID)","scanned_at":"\#(ISOTime.string($0.at))","device_name":"\#(device ?? "dock-b")"}"#
            }
            var fields = [#""scans":[\#(items.joined(separator: ","))]"#]
            if let clock { fields.append(#""station_clock":"\#(ISOTime.string(clock))""#) }
            if let device { fields.append(#""device_name":"\#(device)""#) }
            if let waiting { fields.append(#""waiting":\#(waiting)"#) }
            return "{\(fields.joined(separator: ","))}"
        }
    }

    private func results(_ answer: TestServer.Answer) -> [[String: Any]] { answer.data?["results"] as? [[String: Any]] ?? [] }
    private func outcome(_ item: [String: Any]) -> String? { (item["data"] as? [String: Any])?["status"] as? String ?? item["error"] as? String }

    /// Starts an SG audit of A1…A5, scans A1 on time, ends it; returns the audit id and its end.
    private func endedAudit(_ server: TestServer, token: String) async throws -> (id: String, endedAt: Date) {
        try await server.seed([("A1", "SG"), ("A2", "SG"), ("A3", "SG"), ("A4", "SG"), ("A5", "SG")])
        let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
        let id = try #require((started.data?["audit"] as? [String: Any])?["id"] as? String)
        let onTime = try await server.call(
            "POST", "/api/v1/audit/scan", json: #"{"identifier":"A1","audit_id":"\#(id)","scan_id":"on-time"}"#, token: token)
        #expect(onTime.status == 200)
        let ended = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(id)"}"#, token: token)
        #expect(ended.status == 200, "\(ended.text)")
        let audit = try #require((ended.data?["summary"] as? [String: Any])?["audit"] as? [String: Any])
        return (id, try #require((audit["ended_at"] as? String).flatMap { ISOTime.parse($0) }))
    }

    @Test("Scans made before the end count when they arrive after it, marked late, in every list and report", arguments: Backend.allCases)
    func lateScansCount(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            let token = try await server.user("lead@example.com")
            let (id, endedAt) = try await endedAudit(server, token: token)
            let before = endedAt.addingTimeInterval(-300)
            let batch = Batch(
                scans: [("A2", "late-1", before), ("A3", "late-2", before), ("GHOST", "late-3", before), ("A2", "late-4", before)],
                auditID: id, clock: Date())
            let answer = try await server.call("POST", "/api/v1/audit/scans", json: batch.json, token: token)
            #expect(answer.status == 200, "\(answer.text)")
            let items = results(answer)
            #expect(items.map(outcome) == ["found_expected", "found_expected", "unknown", "already_scanned"])
            #expect(items.allSatisfy { ($0["data"] as? [String: Any])?["late"] as? Bool == true })
            // Sent again (the answer was lost): the same answers, nothing counted twice.
            let again = try await server.call("POST", "/api/v1/audit/scans", json: batch.json, token: token)
            #expect(results(again).map(outcome) == ["found_expected", "found_expected", "unknown", "already_scanned"])

            let audit = try #require((try await server.call("GET", "/api/v1/audit/\(id)", token: token)).data?["audit"] as? [String: Any])
            #expect(audit["scanned_count"] as? Int == 3 && audit["missing_count"] as? Int == 2 && audit["unexpected_count"] as? Int == 1)
            #expect(audit["late_scan_count"] as? Int == 4 && audit["is_active"] as? Bool == false)

            let missing = try await server.call("GET", "/api/v1/audit/details/missing?audit_id=\(id)", token: token)
            #expect(Set(((missing.data?["assets"] as? [[String: Any]]) ?? []).compactMap { $0["asset_tag"] as? String }) == ["A4", "A5"])

            let json = try await server.call("GET", "/api/v1/audit/\(id)/report?format=json", token: token)
            let rows = (json.body["assets"] as? [[String: Any]]) ?? []
            let a2 = try #require(rows.first { $0["identifier"] as? String == "A2" })
            #expect(a2["outcome"] as? String == "scanned" && a2["arrived_late_at"] is String && a2["scan_count"] as? Int == 2)
            #expect(rows.first { $0["identifier"] as? String == "A1" }?["arrived_late_at"] is NSNull)
            #expect(rows.first { $0["identifier"] as? String == "A4" }?["outcome"] as? String == "missing")
            #expect((json.body["summary"] as? [String: Any])?["late_scans"] as? Int == 4)
            let csv = try await server.call("GET", "/api/v1/audit/\(id)/report?format=csv", token: token)
            let lines = csv.text.components(separatedBy: "\r\n")
            #expect(lines.first?.hasSuffix(",source,arrived_late_at") == true)
            #expect(lines.first { $0.hasPrefix("A3,") }?.hasSuffix("Z") == true, "A3's row ends with when it arrived")

            let trail = try await server.call("GET", "/api/v1/audit/\(id)/scans?per_page=100", token: token)
            let scans = (trail.data?["scans"] as? [[String: Any]]) ?? []
            #expect(scans.first { $0["scan_id"] as? String == "on-time" }?["late"] == nil)
            #expect(scans.filter { $0["late"] as? Bool == true }.count == 4)
        }
    }

    @Test("A scan made after the end is refused; the bound covers only a station's own clock", arguments: Backend.allCases)
    func afterTheEndIsRefused(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            let token = try await server.user("lead@example.com")
            let (id, endedAt) = try await endedAudit(server, token: token)
            let beyond = Batch(scans: [("A2", "beyond", endedAt.addingTimeInterval(LateScans.bound + 60))], auditID: id, clock: Date())
            let refused = results(try await server.call("POST", "/api/v1/audit/scans", json: beyond.json, token: token))
            #expect(refused.first?["status"] as? Int == 409 && refused.first?["error"] as? String == "AUDIT_ENDED")
            // A scan that gives no time was made as it arrived: after the end.
            let now = try await server.call("POST", "/api/v1/audit/scan", json: #"{"identifier":"A3","audit_id":"\#(id)"}"#, token: token)
            #expect(now.status == 409 && now.error == "AUDIT_ENDED")
            let within = Batch(scans: [("A4", "within", endedAt.addingTimeInterval(60))], auditID: id, clock: Date())
            #expect(results(try await server.call("POST", "/api/v1/audit/scans", json: within.json, token: token)).map(outcome) == ["found_expected"])
            let audit = try #require((try await server.call("GET", "/api/v1/audit/\(id)", token: token)).data?["audit"] as? [String: Any])
            #expect(audit["scanned_count"] as? Int == 2 && audit["late_scan_count"] as? Int == 1)
        }
    }

    @Test("Station clocks: a slow clock's scan made after the end is refused, a fast clock's made before is taken", arguments: Backend.allCases)
    func skewedClocks(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            let token = try await server.user("lead@example.com")
            let (id, endedAt) = try await endedAudit(server, token: token)
            // 20 minutes slow: made 15 minutes after the end, its clock says 5 minutes before.
            let slow: TimeInterval = -1200
            let slowBatch = Batch(
                scans: [("A2", "slow", endedAt.addingTimeInterval(900 + slow))], auditID: id, clock: Date().addingTimeInterval(slow),
                device: "slow-kiosk")
            let slowAnswer = results(try await server.call("POST", "/api/v1/audit/scans", json: slowBatch.json, token: token))
            #expect(slowAnswer.first?["error"] as? String == "AUDIT_ENDED", "\(slowAnswer)")
            // 3 minutes fast: made a minute before the end, its clock says 2 minutes after; and a
            // scan it made 12 minutes after the end says 15: refused.
            let fast: TimeInterval = 180
            let fastBatch = Batch(
                scans: [("A3", "fast-1", endedAt.addingTimeInterval(-60 + fast)), ("A4", "fast-2", endedAt.addingTimeInterval(720 + fast))],
                auditID: id, clock: Date().addingTimeInterval(fast), device: "fast-kiosk")
            let fastAnswer = results(try await server.call("POST", "/api/v1/audit/scans", json: fastBatch.json, token: token))
            #expect(fastAnswer.map(outcome) == ["found_expected", "AUDIT_ENDED"], "\(fastAnswer)")
            // The trail keeps the fast scan's time on the server's clock.
            let trail = try await server.call("GET", "/api/v1/audit/\(id)/scans?per_page=100", token: token)
            let stored = ((trail.data?["scans"] as? [[String: Any]]) ?? []).first { $0["scan_id"] as? String == "fast-1" }
            let storedAt = try #require((stored?["scanned_at"] as? String).flatMap { ISOTime.parse($0) })
            #expect(abs(storedAt.timeIntervalSince(endedAt.addingTimeInterval(-60))) < 5)
        }
    }

    @Test("Reconcile: mark-missing spares what a late scan found; one found after the apply is restored", arguments: Backend.allCases)
    func reconcileAndLateScans(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            let token = try await server.user("lead@example.com")
            let (id, endedAt) = try await endedAudit(server, token: token)
            let before = endedAt.addingTimeInterval(-30)
            let first = Batch(scans: [("A2", "late-a2", before)], auditID: id, clock: Date())
            #expect(results(try await server.call("POST", "/api/v1/audit/scans", json: first.json, token: token)).map(outcome) == ["found_expected"])
            let applied = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: #"{"mark_missing": true}"#, token: token)
            #expect(applied.status == 200 && (applied.data?["counts"] as? [String: Any])?["mark_missing"] as? Int == 3, "\(applied.text)")
            #expect(try await server.call("GET", "/api/v2/assets/find?identifier=A2", token: token).data?["status"] as? String == "IN_STOCK")
            #expect(try await server.call("GET", "/api/v2/assets/find?identifier=A3", token: token).data?["status"] as? String == "MISSING")

            // A3 was found before the end, and its scan arrives after the apply.
            let second = Batch(scans: [("A3", "late-a3", before)], auditID: id, clock: Date())
            let found = results(try await server.call("POST", "/api/v1/audit/scans", json: second.json, token: token))
            #expect((found.first?["data"] as? [String: Any])?["missing_since_audit"] as? String == id)
            let preview = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: #"{"preview": true}"#, token: token)
            #expect((preview.data?["counts"] as? [String: Any])?["restore_found"] as? Int == 1)
            let listed = (preview.data?["changes"] as? [[String: Any]]) ?? []
            #expect(listed.contains { $0["asset_tag"] as? String == "A3" && $0["action"] as? String == "restore_found" }, "\(listed)")
            let restored = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: #"{"restore_found": true}"#, token: token)
            #expect(restored.status == 200)
            #expect(try await server.call("GET", "/api/v2/assets/find?identifier=A3", token: token).data?["status"] as? String == "IN_STOCK")
        }
    }

    @Test("Ending names the stations still out, and needs force while any are", arguments: Backend.allCases)
    func endingKnowsWhoIsOut(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            let token = try await server.user("lead@example.com")
            try await server.seed([("A1", "SG"), ("A2", "SG")])
            let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
            let id = try #require((started.data?["audit"] as? [String: Any])?["id"] as? String)
            let batch = Batch(scans: [("A1", "b1", Date())], auditID: id, clock: Date(), device: "dock-b", waiting: 5)
            #expect(try await server.call("POST", "/api/v1/audit/scans", json: batch.json, token: token).status == 200)
            let report = try await server.call(
                "POST", "/api/v1/audit/\(id)/stations", json: #"{"device_name":"kiosk-1","waiting":0}"#, token: token)
            #expect(report.status == 200 && (report.data?["audit"] as? [String: Any])?["is_active"] as? Bool == true)
            let listed = try await server.call("GET", "/api/v1/audit/\(id)/stations", token: token)
            let stations = (listed.data?["stations"] as? [[String: Any]]) ?? []
            #expect(stations.map { $0["station"] as? String } == ["dock-b", "kiosk-1"])
            #expect(stations.first?["waiting"] as? Int == 5 && stations.first?["last_seen_at"] is String)

            let refused = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(id)"}"#, token: token)
            #expect(refused.status == 409 && refused.error == "STATIONS_OUT", "\(refused.text)")
            #expect(refused.text.contains("dock-b joined this audit and last synced") && refused.text.contains("5 scans waiting"))
            #expect(!refused.text.contains("kiosk-1"))
            let out = ((refused.body["data"] as? [String: Any])?["stations"] as? [String]) ?? []
            #expect(out.count == 1 && out.first?.hasPrefix("dock-b") == true)
            #expect(
                (try await server.call("GET", "/api/v1/audit/\(id)", token: token)).data.flatMap { $0["audit"] as? [String: Any] }?["is_active"]
                    as? Bool == true)

            // The station sends the rest and says none wait: the end goes through.
            let rest = Batch(scans: [("A2", "b2", Date())], auditID: id, clock: Date(), device: "dock-b", waiting: 0)
            #expect(try await server.call("POST", "/api/v1/audit/scans", json: rest.json, token: token).status == 200)
            let ended = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(id)"}"#, token: token)
            #expect(ended.status == 200, "\(ended.text)")
        }
    }

    @Test("force ends an audit while a station is out", arguments: Backend.allCases)
    func forceEnds(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            let token = try await server.user("lead@example.com")
            try await server.seed([("A1", "SG")])
            let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
            let id = try #require((started.data?["audit"] as? [String: Any])?["id"] as? String)
            _ = try await server.call("POST", "/api/v1/audit/\(id)/stations", json: #"{"device_name":"dock-b","waiting":3}"#, token: token)
            let bad = try await server.call("POST", "/api/v1/audit/\(id)/stations", json: #"{"device_name":"dock-b","waiting":-1}"#, token: token)
            #expect(bad.status == 422)
            #expect(try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(id)"}"#, token: token).status == 409)
            let forced = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(id)","force":true}"#, token: token)
            #expect(forced.status == 200, "\(forced.text)")
        }
    }
}
