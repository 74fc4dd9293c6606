import AuditTestSupport
import Foundation
import Testing

/// `POST /api/v1/audit/scans/{scan_id}/void`: who may void, what it answers, and the refusals.
@Suite("The void route")
struct VoidRouteTests {
    @Test(arguments: Backend.allCases) func voidAScanThroughTheAPI(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let lead = try await server.user("lead@example.com")
            let myStaff = try await server.user("my@example.com", type: "STAFF", countries: ["MY"])
            try await server.seed([("A1", "SG"), ("A2", "SG"), ("B1", "MY")])
            let sg = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: lead)
            let sgID = try #require((sg.data?["audit"] as? [String: Any])?["id"] as? String)
            let my = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"MY"}"#, token: lead)
            let myID = try #require((my.data?["audit"] as? [String: Any])?["id"] as? String)
            _ = try await server.call(
                "POST", "/api/v1/audit/scan", json: #"{"identifier": "A1", "audit_id": "\#(sgID)", "scan_id": "s-1"}"#, token: lead)

            // Staff of MY may not void a scan of SG's audit.
            let forbidden = try await server.call("POST", "/api/v1/audit/scans/s-1/void", token: myStaff)
            #expect(forbidden.status == 403)
            // Naming another audit, or a scan that does not exist: 404, nothing changed.
            let otherAudit = try await server.call(
                "POST", "/api/v1/audit/scans/s-1/void", json: #"{"audit_id": "\#(myID)"}"#, token: lead)
            #expect(otherAudit.status == 404 && otherAudit.text.contains("another audit"))
            let unknown = try await server.call("POST", "/api/v1/audit/scans/nope/void", token: lead)
            #expect(unknown.status == 404 && unknown.error == "NOT_FOUND")
            let wrongType = try await server.call("POST", "/api/v1/audit/scans/s-1/void", json: #"{"reason": 5}"#, token: lead)
            #expect(wrongType.status == 400 || wrongType.status == 422)
            let status = try await server.call("GET", "/api/v1/audit/\(sgID)", token: lead)
            #expect((status.data?["audit"] as? [String: Any])?["scanned_count"] as? Int == 1)

            let claims = #"{"reason": "wrong shelf", "device_name": "kiosk-3", "void_id": "v-1", "user": "mallory", "scan_id": "s-2"}"#
            let void = try await server.call("POST", "/api/v1/audit/scans/s-1/void", json: claims, token: lead)
            #expect(void.status == 200)
            // The scan is the path's and the user the token's, whatever the body says.
            #expect((void.data?["progress"] as? [String: Any])?["scanned_count"] as? Int == 0)
            let record = try #require(void.data?["void"] as? [String: Any])
            #expect(record["user"] as? String == "lead" && record["station"] as? String == "kiosk-3" && record["reason"] as? String == "wrong shelf")
            #expect(record["scan_id"] as? String == "s-1")
            let trail = try await server.call("GET", "/api/v1/audit/\(sgID)/scans", token: lead)
            let scans = try #require(trail.data?["scans"] as? [[String: Any]])
            #expect((scans.first?["voided"] as? [String: Any])?["void_id"] as? String == "v-1")

            _ = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id": "\#(sgID)"}"#, token: lead)
            _ = try await server.call(
                "POST", "/api/v1/audit/scan", json: #"{"identifier": "B1", "audit_id": "\#(myID)", "scan_id": "m-1"}"#, token: lead)
            _ = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id": "\#(myID)"}"#, token: lead)
            let ended = try await server.call("POST", "/api/v1/audit/scans/m-1/void", token: lead)
            #expect(ended.status == 409 && ended.error == "AUDIT_ENDED")
        }
    }

    @Test("A void sent again, by its void_id or as a second void of the scan, answers exactly as the first did", arguments: Backend.allCases)
    func aResentVoidAnswersAsTheFirstDid(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let lead = try await server.user("lead@example.com")
            try await server.seed([("A1", "SG"), ("A2", "SG")])
            let sg = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: lead)
            let id = try #require((sg.data?["audit"] as? [String: Any])?["id"] as? String)
            for (n, tag) in ["A1", "A1"].enumerated() {
                _ = try await server.call(
                    "POST", "/api/v1/audit/scan", json: #"{"identifier": "\#(tag)", "audit_id": "\#(id)", "scan_id": "s-\#(n)"}"#, token: lead)
            }
            let body = #"{"reason": "double", "device_name": "kiosk-3", "void_id": "v-1"}"#
            let first = try await server.call("POST", "/api/v1/audit/scans/s-0/void", json: body, token: lead)
            #expect(first.status == 200 && first.data?["effect"] as? String != nil, "\(first.text)")
            // The audit moves on: another find changes its numbers.
            _ = try await server.call(
                "POST", "/api/v1/audit/scan", json: #"{"identifier": "A2", "audit_id": "\#(id)", "scan_id": "s-9"}"#, token: lead)
            let again = try await server.call("POST", "/api/v1/audit/scans/s-0/void", json: body, token: lead)
            #expect(again.status == first.status && again.text == first.text, "first: \(first.text)\nagain: \(again.text)")
            let second = try await server.call("POST", "/api/v1/audit/scans/s-0/void", json: #"{"void_id": "v-2"}"#, token: lead)
            #expect(second.status == first.status && second.text == first.text, "\(second.text)")
            // After the audit's end too.
            _ = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id": "\#(id)", "force": true}"#, token: lead)
            let late = try await server.call("POST", "/api/v1/audit/scans/s-0/void", json: body, token: lead)
            #expect(late.status == first.status && late.text == first.text, "\(late.text)")
            // The same void_id for another scan is still refused.
            let reused = try await server.call("POST", "/api/v1/audit/scans/s-1/void", json: body, token: lead)
            #expect(reused.status == 409 || reused.status == 422, "\(reused.text)")
        }
    }
}
