import AuditTestSupport
import Foundation
import Testing

/// `POST /api/v1/audit/{audit_id}/reconcile` and `GET /api/v2/assets/{id}/history`: who may
/// reconcile, what it answers, and the refusals, each changing nothing.
@Suite("The reconcile route")
struct ReconcileRouteTests {
    @Test(arguments: Backend.allCases) func reconcileThroughTheAPI(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let lead = try await server.user("lead@example.com")
            let viewer = try await server.user("viewer@example.com", type: "STAFF", canEditAssets: false)
            let myEditor = try await server.user("my@example.com", type: "STAFF", countries: ["MY"])
            try await server.seed([("A1", "SG"), ("A2", "SG"), ("B1", "MY")])
            let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: lead)
            let id = try #require((started.data?["audit"] as? [String: Any])?["id"] as? String)
            for (n, identifier) in ["A1", "GHOST-9"].enumerated() {
                let scan = try await server.call(
                    "POST", "/api/v1/audit/scan",
                    json: #"{"identifier": "\#(identifier)", "audit_id": "\#(id)", "scan_id": "s\#(n)", "location": "Dock B"}"#,
                    token: lead)
                #expect(scan.status == 200)
            }
            let apply = #"{"move_misplaced": true, "mark_missing": true, "register_unknown": true}"#
            // A running audit: 409, nothing changed.
            let running = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: apply, token: lead)
            #expect(running.status == 409 && running.error == "AUDIT_RUNNING" && running.text.contains("still running"))
            _ = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id": "\#(id)"}"#, token: lead)

            // Without can_edit_assets, or without the audit's country: 403.
            let viewerCall = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: apply, token: viewer)
            #expect(viewerCall.status == 403 && viewerCall.text.contains("can_edit_assets"))
            #expect(try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: apply, token: myEditor).status == 403)
            #expect(try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: apply).status == 401)
            // An unknown audit: 404. No action for an apply: 422. A flag of the wrong type: 400 or 422.
            let unknown = try await server.call("POST", "/api/v1/audit/nope/reconcile", json: apply, token: lead)
            #expect(unknown.status == 404 && unknown.error == "NOT_FOUND")
            let none = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", token: lead)
            #expect(none.status == 422 && (none.body["errors"] as? [String: Any])?["actions"] != nil)
            let wrongType = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: #"{"preview": "yes"}"#, token: lead)
            #expect(wrongType.status == 400 || wrongType.status == 422)
            let find = try await server.call("GET", "/api/v2/assets/find?identifier=A2", token: lead)
            #expect(find.data?["status"] as? String == "IN_STOCK")
            #expect(try await server.call("GET", "/api/v2/assets/find?identifier=GHOST-9", token: lead).data == nil)

            // A preview lists the changes and changes nothing.
            let preview = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: #"{"preview": true}"#, token: lead)
            #expect(preview.status == 200 && preview.data?["preview"] as? Bool == true && preview.data?["total"] as? Int == 3)
            let counts = try #require(preview.data?["counts"] as? [String: Any])
            #expect(counts["move_misplaced"] as? Int == 1 && counts["mark_missing"] as? Int == 1 && counts["register_unknown"] as? Int == 1)
            #expect(counts["restore_found"] as? Int == 0)
            let listed = try #require(preview.data?["changes"] as? [[String: Any]])
            #expect(listed.map { $0["asset_tag"] as? String } == ["A1", "A2", "GHOST-9"])
            #expect(
                listed[1]["from"] as? String == "IN_STOCK" && listed[1]["to"] as? String == "MISSING" && listed[1]["field"] as? String == "status")
            #expect(try await server.call("GET", "/api/v2/assets/find?identifier=A2", token: lead).data?["status"] as? String == "IN_STOCK")

            // Applied, then again: the second run changes nothing.
            let applied = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: apply, token: lead)
            #expect(applied.status == 200 && applied.data?["total"] as? Int == 3 && applied.data?["preview"] as? Bool == false)
            let again = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: apply, token: lead)
            #expect(again.status == 200 && again.data?["total"] as? Int == 0 && (again.data?["changes"] as? [Any])?.isEmpty == true)
            let a2 = try await server.call("GET", "/api/v2/assets/find?identifier=A2", token: lead)
            #expect(a2.data?["status"] as? String == "MISSING")
            let ghost = try await server.call("GET", "/api/v2/assets/find?identifier=GHOST-9", token: lead)
            #expect(ghost.data?["country"] as? String == "SG" && ghost.data?["location"] as? String == "Dock B")

            // The history names the audit and the user, a page at a time.
            let a2ID = try #require(a2.data?["id"] as? Int)
            let history = try await server.call("GET", "/api/v2/assets/\(a2ID)/history?per_page=10", token: lead)
            #expect(history.status == 200)
            let entries = try #require(history.data?["history"] as? [[String: Any]])
            #expect(entries.count == 1 && (history.data?["pagination"] as? [String: Any])?["total"] as? Int == 1)
            #expect(entries.first?["audit_id"] as? String == id && entries.first?["user"] as? String == "lead")
            #expect(entries.first?["kind"] as? String == "mark_missing" && entries.first?["from"] as? String == "IN_STOCK")
            #expect(try await server.call("GET", "/api/v2/assets/999999/history", token: lead).status == 404)
            // An asset of a country the user may not see is not found.
            #expect(try await server.call("GET", "/api/v2/assets/\(a2ID)/history", token: myEditor).status == 404)
        }
    }
}
