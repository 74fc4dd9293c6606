import AuditTestSupport
import Foundation
import InventoryCore
import Testing

/// `last_audited_at`: when an ended audit last found each asset, and the `not_audited_since`
/// filter of the assets list, on both back ends.
@Suite("When each asset was last audited")
struct LastAuditedTests {
    private func assets(_ server: TestServer, _ query: String, token: String) async throws -> [[String: Any]] {
        let answer = try await server.call("GET", "/api/v2/assets" + query, token: token)
        #expect(answer.status == 200, "\(answer.text)")
        return answer.data?["assets"] as? [[String: Any]] ?? []
    }

    private func tags(_ rows: [[String: Any]]) -> [String] { rows.compactMap { $0["asset_tag"] as? String } }

    private func lastAudited(_ rows: [[String: Any]], _ tag: String) -> Date? {
        (rows.first { $0["asset_tag"] as? String == tag }?["last_audited_at"] as? String).flatMap { ISOTime.parse($0) }
    }

    private func scan(_ server: TestServer, _ tag: String, id: String, audit: String, at: Date? = nil, token: String) async throws {
        let time = at.map { #","scanned_at":"\#(ISOTime.string($0))""# } ?? ""
        let answer = try await server.call(
            "POST", "/api/v1/audit/scan", json: #"{"identifier":"\#(tag)","audit_id":"\#(audit)","scan_id":"\#(id)"\#(time)}"#, token: token)
        #expect(answer.status == 200, "\(answer.text)")
    }

    @Test(
        "An ended audit stamps the assets it found with their last found scan; running audits, voids and unexpected scans do not",
        arguments: Backend.allCases)
    func endedAuditStamps(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("lead@example.com")
            try await server.seed([("A1", "SG"), ("A2", "SG"), ("A3", "SG"), ("A4", "SG"), ("M1", "MY")])
            let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
            let id = try #require((started.data?["audit"] as? [String: Any])?["id"] as? String)
            let t1 = Date().addingTimeInterval(-120), t2 = Date().addingTimeInterval(-60)
            try await scan(server, "A1", id: "s1", audit: id, at: t1, token: token)
            try await scan(server, "A2", id: "s2", audit: id, at: t1, token: token)
            try await scan(server, "A2", id: "s3", audit: id, at: t2, token: token)
            try await scan(server, "A3", id: "s4", audit: id, token: token)
            try await scan(server, "M1", id: "s5", audit: id, token: token)
            let void = try await server.call("POST", "/api/v1/audit/scans/s4/void", json: #"{"audit_id":"\#(id)"}"#, token: token)
            #expect(void.status == 200, "\(void.text)")

            let running = try await assets(server, "", token: token)
            #expect(running.allSatisfy { $0["last_audited_at"] == nil || $0["last_audited_at"] is NSNull }, "a running audit stamps nothing")

            let ended = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(id)"}"#, token: token)
            #expect(ended.status == 200, "\(ended.text)")
            let rows = try await assets(server, "", token: token)
            #expect(lastAudited(rows, "A1").map(ISOTime.string) == ISOTime.string(t1))
            #expect(lastAudited(rows, "A2").map(ISOTime.string) == ISOTime.string(t2), "the last found scan, not the first")
            #expect(lastAudited(rows, "A3") == nil, "its only scan was voided")
            #expect(lastAudited(rows, "A4") == nil && lastAudited(rows, "M1") == nil, "missing, and unexpected in another country")

            // A scan made before the end that arrives after it (late) moves the time on.
            try await scan(server, "A4", id: "late", audit: id, at: t2, token: token)
            #expect(lastAudited(try await assets(server, "", token: token), "A4").map(ISOTime.string) == ISOTime.string(t2))

            // A later audit whose scans are older never moves a time back.
            let second = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
            let secondID = try #require((second.data?["audit"] as? [String: Any])?["id"] as? String)
            try await scan(server, "A2", id: "old", audit: secondID, at: t1, token: token)
            _ = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(secondID)"}"#, token: token)
            #expect(lastAudited(try await assets(server, "", token: token), "A2").map(ISOTime.string) == ISOTime.string(t2))

            let one = try await server.call(
                "GET", "/api/v2/assets/\(try #require(rows.first { $0["asset_tag"] as? String == "A1" }?["id"] as? Int))", token: token)
            #expect((one.data?["last_audited_at"] as? String) == ISOTime.string(t1))
        }
    }

    @Test("not_audited_since lists the assets no ended audit found since then, never found first, then the oldest", arguments: Backend.allCases)
    func notAuditedSince(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("lead@example.com")
            try await server.seed([("A1", "SG"), ("A2", "SG"), ("A3", "SG"), ("A4", "SG")])
            let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
            let id = try #require((started.data?["audit"] as? [String: Any])?["id"] as? String)
            let old = Date().addingTimeInterval(-3_600), older = Date().addingTimeInterval(-7_200)
            try await scan(server, "A3", id: "s1", audit: id, at: old, token: token)
            try await scan(server, "A1", id: "s2", audit: id, at: older, token: token)
            _ = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(id)"}"#, token: token)

            #expect(tags(try await assets(server, "?not_audited_since=180d", token: token)) == ["A2", "A4"])
            #expect(tags(try await assets(server, "?not_audited_since=2100-01-01", token: token)) == ["A2", "A4", "A1", "A3"])
            let between = ISOTime.string(old.addingTimeInterval(-60))
            #expect(tags(try await assets(server, "?not_audited_since=\(between)&country=SG", token: token)) == ["A2", "A4", "A1"])
            let paged = try await server.call("GET", "/api/v2/assets?not_audited_since=2100-01-01&per_page=2&page=2", token: token)
            #expect(tags(paged.data?["assets"] as? [[String: Any]] ?? []) == ["A1", "A3"])
            #expect((paged.data?["pagination"] as? [String: Any])?["total"] as? Int == 4)
            #expect(tags(try await assets(server, "?not_audited_since=2100-01-01&search=A3", token: token)) == ["A3"])

            let bad = try await server.call("GET", "/api/v2/assets?not_audited_since=soon", token: token)
            #expect(bad.status == 422 && bad.text.contains("not_audited_since"), "\(bad.text)")
        }
    }

    @Test("An age in days counts back from now; dates and times are read as ISO 8601; anything else is refused")
    func ages() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(try AuditAge.cutoff("180d", now: now) == now.addingTimeInterval(-180 * 86_400))
        #expect(try AuditAge.cutoff("0d", now: now) == now)
        #expect(try AuditAge.cutoff("2026-01-31", now: now) == ISOTime.parse("2026-01-31T00:00:00Z"))
        #expect(try AuditAge.cutoff("2026-01-31T10:00:00Z", now: now) == ISOTime.parse("2026-01-31T10:00:00Z"))
        for bad in ["", "d", "-1d", "99999999d", "180", "tomorrow"] {
            #expect(throws: ValidationError.self, "\(bad)") { try AuditAge.cutoff(bad, now: now) }
        }
    }
}
