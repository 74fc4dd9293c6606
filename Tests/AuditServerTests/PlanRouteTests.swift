import AuditTestSupport
import Foundation
import Testing

/// `/api/v1/audit/plans` and `/api/v1/audit/due` (SPEC "Cycle counts"): who may add and remove
/// plans, who sees them, and the due list with its Start permission.
@Suite("Audit plan routes")
struct PlanRouteTests {
    @Test("Plans are added by whoever may start audits of their country, and listed overdue first", arguments: Backend.allCases)
    func plansAndDue(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let admin = try await server.user("root@example.com")
            let staff = try await server.user("sg@example.com", type: "STAFF", countries: ["SG"], canEditAssets: false)
            let client = try await server.user("view@example.com", type: "CLIENT", countries: ["SG"], canEditAssets: false)
            try await server.seed([("A1", "SG"), ("M1", "MY")])

            let added = try await server.call(
                "POST", "/api/v1/audit/plans", json: #"{"country":"sg","every_days":30,"assignee":"sg@example.com"}"#, token: staff)
            #expect(added.status == 201)
            let plan = try #require(added.data?["plan"] as? [String: Any])
            #expect(plan["country"] as? String == "SG" && plan["every_days"] as? Int == 30 && plan["next_due_at"] is String)
            let forbidden = try await server.call("POST", "/api/v1/audit/plans", json: #"{"country":"MY","every_days":30}"#, token: staff)
            #expect(forbidden.status == 403 && forbidden.error == "FORBIDDEN")
            #expect(try await server.call("POST", "/api/v1/audit/plans", json: #"{"country":"SG","every_days":7}"#, token: client).status == 403)
            let bad = try await server.call(
                "POST", "/api/v1/audit/plans", json: #"{"country":"MY","every_days":0,"location":"Nowhere"}"#, token: admin)
            #expect(bad.status == 422 && bad.error == "VALIDATION_ERROR")
            #expect(try await server.call("POST", "/api/v1/audit/plans", json: #"{"country":"MY","every_days":7}"#, token: admin).status == 201)

            // The staff user sees SG's plan only; the client sees it but may not start it.
            let due = try await server.call("GET", "/api/v1/audit/due?within=14", token: staff)
            let rows = try #require(due.data?["plans"] as? [[String: Any]])
            #expect(rows.map { $0["country"] as? String } == ["SG"])
            #expect(rows.first?["state"] as? String == "due" && rows.first?["may_start"] as? Bool == true)
            #expect(rows.first?["assignee"] as? String == "sg@example.com")
            let seen = try await server.call("GET", "/api/v1/audit/due", token: client)
            #expect((seen.data?["plans"] as? [[String: Any]])?.first?["may_start"] as? Bool == false)
            #expect(try await server.call("GET", "/api/v1/audit/due?within=x", token: admin).status == 422)
            let all = try await server.call("GET", "/api/v1/audit/plans", token: admin)
            #expect((all.data?["plans"] as? [[String: Any]])?.count == 2)

            let id = try #require(plan["id"] as? Int)
            #expect(try await server.call("DELETE", "/api/v1/audit/plans/\(id)", token: client).status == 403)
            #expect(try await server.call("DELETE", "/api/v1/audit/plans/\(id)", token: staff).status == 200)
            #expect(try await server.call("DELETE", "/api/v1/audit/plans/\(id)", token: staff).status == 404)
        }
    }
}
