import AuditTestSupport
import Foundation
import Testing

@Suite("Malformed, oversized and wrongly typed bodies")
struct BadBodyTests {
    @Test(arguments: [
        ("{not json", 400, "BAD_REQUEST"),
        ("", 400, "BAD_REQUEST"),
        ("[1, 2]", 400, "BAD_REQUEST"),
        (#"{"identifier": 42}"#, 422, "VALIDATION_ERROR"),
        (#"{"identifier": null}"#, 422, "VALIDATION_ERROR"),
        (#"{"audit_id": "x"}"#, 422, "VALIDATION_ERROR"),
        (#"{"identifier": "A1", "scanned_at": "yesterday"}"#, 422, "VALIDATION_ERROR"),
        (#"{"identifier": "A1", "source": "telepathy"}"#, 422, "VALIDATION_ERROR"),
        (#"{"identifier": "be\u0007ll"}"#, 422, "VALIDATION_ERROR"),
    ])
    func aBadScanBodyGetsTheEnvelope(body: String, status: Int, code: String) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let token = try await server.user("a@example.com")
        try await server.seed([("A1", "SG")])
        _ = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
        let answer = try await server.call("POST", "/api/v1/audit/scan", json: body, token: token)
        #expect(answer.status == status)
        #expect(answer.body["success"] as? Bool == false)
        #expect(answer.error == code)
        #expect((answer.body["message"] as? String)?.isEmpty == false)
        if status == 422 { #expect((answer.body["errors"] as? [String: [String]])?.isEmpty == false) }
        let audit = try await server.call("GET", "/api/v1/audit/status", token: token)
        #expect((audit.data?["audit"] as? [String: Any])?["scanned_count"] as? Int == 0)
    }

    @Test func aWronglyTypedFieldIsNamedInErrors() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let token = try await server.user("b@example.com")
        let answer = try await server.call("POST", "/api/v2/assets", json: #"{"asset_tag": "T1", "name": "X", "country": "SG", "customer_id": "seven"}"#, token: token)
        #expect(answer.status == 422)
        #expect((answer.body["errors"] as? [String: [String]])?["customer_id"] == ["must be an integer"])
    }

    @Test func anOversizedBodyIs400AndStoresNothing() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let token = try await server.user("c@example.com")
        let huge = #"{"asset_tag": "T1", "name": "X", "country": "SG", "notes": ""# + String(repeating: "x", count: 100_000) + #""}"#
        let answer = try await server.call("POST", "/api/v2/assets", json: huge, token: token)
        #expect(answer.status == 400)
        #expect(answer.error == "BODY_TOO_LARGE")
        let list = try await server.call("GET", "/api/v2/assets", token: token)
        #expect((list.data?["pagination"] as? [String: Any])?["total"] as? Int == 0)
    }

    @Test func anUnknownRouteIs404WithTheEnvelope() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let token = try await server.user("d@example.com")
        let answer = try await server.call("GET", "/api/v1/nothing-here", token: token)
        #expect(answer.status == 404)
        #expect(answer.error == "NOT_FOUND")
    }
}
