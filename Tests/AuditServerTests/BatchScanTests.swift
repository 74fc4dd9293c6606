import AuditTestSupport
import Foundation
import Testing

@Suite("Batch scans: POST /api/v1/audit/scans")
struct BatchScanTests {
    private func batch(_ scans: [(String, String)], auditID: String? = nil) -> String {
        let items = scans.map { identifier, scanID in
            let audit = auditID.map { #","audit_id":"\#($0)""# } ?? ""
            return #"{"identifier":"\#(identifier)","scan_id":"\#(scanID)"\#(audit)}"#
        }
        return #"{"scans":[\#(items.joined(separator: ","))]}"#
    }

    private func results(_ answer: TestServer.Answer) -> [[String: Any]] { answer.data?["results"] as? [[String: Any]] ?? [] }

    @Test("One answer per scan in order; refused scans do not stop the others; resending changes nothing", arguments: Backend.allCases)
    func aBatchAnswersEachScan(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("lead@example.com")
            try await server.seed([("A1", "SG"), ("A2", "SG"), ("A3", "SG")])
            _ = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
            let body = batch([("A1", "s1"), ("A2", "s2"), ("A1", "s3"), ("NOPE", "s4"), ("bad\\u0007tag", "s5"), ("A1", "s1")])
            let first = try await server.call("POST", "/api/v1/audit/scans", json: body, token: token)
            #expect(first.status == 200, "\(first.text)")
            let answers = results(first)
            #expect(
                answers.map { ($0["data"] as? [String: Any])?["status"] as? String ?? $0["error"] as? String }
                    == ["found_expected", "found_expected", "already_scanned", "unknown", "VALIDATION_ERROR", "found_expected"])
            #expect(answers.map { $0["scan_id"] as? String } == ["s1", "s2", "s3", "s4", "s5", "s1"])
            #expect(answers[4]["status"] as? Int == 422 && answers[4]["success"] as? Bool == false)
            let again = try await server.call("POST", "/api/v1/audit/scans", json: body, token: token)
            #expect(
                results(again).map { ($0["data"] as? [String: Any])?["status"] as? String ?? $0["error"] as? String }
                    == ["found_expected", "found_expected", "already_scanned", "unknown", "VALIDATION_ERROR", "found_expected"])
            let status = try await server.call("GET", "/api/v1/audit/status", token: token)
            let audit = try #require(status.data?["audit"] as? [String: Any])
            #expect(audit["scanned_count"] as? Int == 2 && audit["unexpected_count"] as? Int == 1)
            let report = try await server.call("GET", "/api/v1/audit/\(audit["id"] as? String ?? "")/report?format=json", token: token)
            let rows = (report.body["assets"] as? [[String: Any]]) ?? []
            #expect(rows.first { $0["identifier"] as? String == "A1" }?["scan_count"] as? Int == 2, "s1 and s3, the replays not counted")
        }
    }

    @Test("Scans into an audit the user may not run, or an ended one, are refused one by one", arguments: Backend.allCases)
    func permissionsAndEndedAuditsPerScan(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let admin = try await server.user("root@example.com")
            let staff = try await server.user("sg@example.com", type: "STAFF", countries: ["SG"], canEditAssets: false)
            try await server.seed([("A1", "SG"), ("M1", "MY")])
            _ = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: admin)
            let my = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"MY"}"#, token: admin)
            let myID = try #require((my.data?["audit"] as? [String: Any])?["id"] as? String)
            let sg = try #require(
                ((try await server.call("GET", "/api/v1/audit/status?country=SG", token: admin)).data?["audit"] as? [String: Any])?["id"] as? String)
            let mixed =
                #"{"scans":[{"identifier":"M1","scan_id":"m1","audit_id":"\#(myID)"},{"identifier":"A1","scan_id":"a1","audit_id":"\#(sg)"}]}"#
            let answer = try await server.call("POST", "/api/v1/audit/scans", json: mixed, token: staff)
            let answers = results(answer)
            #expect(answers.first?["status"] as? Int == 403 && answers.first?["error"] as? String == "FORBIDDEN")
            #expect((answers.last?["data"] as? [String: Any])?["status"] as? String == "found_expected")
            _ = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(sg)"}"#, token: admin)
            let late = try await server.call("POST", "/api/v1/audit/scans", json: batch([("A1", "late")], auditID: sg), token: admin)
            #expect(results(late).first?["status"] as? Int == 409 && results(late).first?["error"] as? String == "AUDIT_ENDED")
        }
    }

    @Test("More than 500 scans a call is a 422 naming scans, and nothing is stored", arguments: Backend.allCases)
    func aBatchHasALimit(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("lead@example.com")
            try await server.seed([("A1", "SG")])
            _ = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
            let answer = try await server.call("POST", "/api/v1/audit/scans", json: batch((0..<501).map { ("A1", "x\($0)") }), token: token)
            #expect(answer.status == 422 && (answer.body["errors"] as? [String: Any])?["scans"] != nil, "\(answer.text)")
            let status = try await server.call("GET", "/api/v1/audit/status", token: token)
            #expect((status.data?["audit"] as? [String: Any])?["scanned_count"] as? Int == 0)
        }
    }
}
