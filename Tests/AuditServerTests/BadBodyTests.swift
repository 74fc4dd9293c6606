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
        (#"{"identifier": "A1", "scanned_at": "0001-01-01T00:00:00Z"}"#, 422, "VALIDATION_ERROR"),
        (#"{"identifier": "A1", "scanned_at": "9999-12-31T23:59:59Z"}"#, 422, "VALIDATION_ERROR"),
        (#"{"identifier": "A1", "scanned_at": "1999-12-31T23:59:59Z"}"#, 422, "VALIDATION_ERROR")
    ])
    func aBadScanBodyGetsTheEnvelope(body: String, status: Int, code: String) async throws {
        try await TestServer.routes { server in
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
    }

    @Test("Paging numbers out of range are a 422 naming the field, never a crash, for any user")
    func pagingAtTheEdges() async throws {
        let server = try await TestServer.start()
        let admin = try await server.user("admin-pager@example.com")
        try await server.seed([("P1", "SG")])
        _ = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: admin)
        let token = try await server.user("pager@example.com", type: "CLIENT", countries: ["SG"], canEditAssets: false)
        for (query, field) in [
            ("page=9223372036854775807", "page"), ("page=9223372036854775808", "page"), ("page=0", "page"),
            ("page=-1", "page"), ("per_page=0", "per_page"), ("per_page=101", "per_page"),
            ("per_page=9223372036854775807&page=9223372036854775807", "page"), ("page=1e3", "page")
        ] {
            for path in [
                "/api/v1/audit/history", "/api/v2/assets", "/api/v2/customers", "/api/v2/accessories",
                "/api/v1/audit/details/all"
            ] {
                let answer = try await server.call("GET", "\(path)?\(query)", token: token)
                #expect(answer.status == 422, "\(path)?\(query): \(answer.text.prefix(200))")
                #expect((answer.body["errors"] as? [String: [String]])?[field] != nil, "\(path)?\(query): \(answer.text.prefix(200))")
            }
        }
        let long = String(repeating: "x", count: 60_000)
        for path in ["/api/v2/assets", "/api/v1/audit/details/missing", "/api/v2/customers"] {
            let answer = try await server.call("GET", "\(path)?search=\(long)", token: token)
            #expect(answer.status == 422 && (answer.body["errors"] as? [String: [String]])?["search"] != nil, "\(path): \(answer.text.prefix(200))")
        }
        let fine = try await server.call("GET", "/api/v2/assets?page=10000000&per_page=100", token: token)
        #expect(fine.status == 200)
        #expect(((fine.data?["assets"]) as? [Any])?.isEmpty == true)
        await server.stop()
    }

    @Test func aWronglyTypedFieldIsNamedInErrors() async throws {
        try await TestServer.routes { server in
            let token = try await server.user("b@example.com")
            let answer = try await server.call(
                "POST", "/api/v2/assets", json: #"{"asset_tag": "T1", "name": "X", "country": "SG", "customer_id": "seven"}"#, token: token)
            #expect(answer.status == 422)
            #expect((answer.body["errors"] as? [String: [String]])?["customer_id"] == ["must be an integer"])
        }
    }

    @Test func anOversizedBodyIs400AndStoresNothing() async throws {
        try await TestServer.routes { server in
            let token = try await server.user("c@example.com")
            let huge = #"{"asset_tag": "T1", "name": "X", "country": "SG", "notes": ""# + String(repeating: "x", count: 100_000) + #""}"#
            let answer = try await server.call("POST", "/api/v2/assets", json: huge, token: token)
            #expect(answer.status == 400)
            #expect(answer.error == "BODY_TOO_LARGE")
            let list = try await server.call("GET", "/api/v2/assets", token: token)
            #expect((list.data?["pagination"] as? [String: Any])?["total"] as? Int == 0)
        }
    }

    @Test func anUnknownRouteIs404WithTheEnvelope() async throws {
        try await TestServer.routes { server in
            let token = try await server.user("d@example.com")
            let answer = try await server.call("GET", "/api/v1/nothing-here", token: token)
            #expect(answer.status == 404)
            #expect(answer.error == "NOT_FOUND")
        }
    }

    @Test(
        "Integers out of range are a 422 naming the field, and nothing is stored",
        arguments: [
            ("/api/v2/accessories", #"{"name":"Mouse","category":"Input","total_quantity":9223372036854775807}"#, "total_quantity"),
            ("/api/v2/accessories", #"{"name":"Mouse","category":"Input","total_quantity":-1}"#, "total_quantity"),
            ("/api/v2/accessories", #"{"name":"Mouse","category":"Input","company_id":-4}"#, "company_id"),
            ("/api/v2/customers", #"{"name":"Acme","contact_number":"1","address":"x","country":"SG","company_id":0}"#, "company_id"),
            (
                "/api/v2/assets", #"{"asset_tag":"T9","name":"Laptop","status":"IN_STOCK","country":"SG","customer_id":-9223372036854775808}"#,
                "customer_id"
            )
        ])
    func integersOutOfRangeAreRefused(path: String, body: String, field: String) async throws {
        try await TestServer.routes { server in
            let token = try await server.user("n@example.com")
            let answer = try await server.call("POST", path, json: body, token: token)
            #expect(answer.status == 422 && answer.error == "VALIDATION_ERROR", "\(answer.text)")
            #expect((answer.body["errors"] as? [String: Any])?[field] != nil, "\(answer.text)")
            let list = try await server.call("GET", path, token: token)
            #expect((list.data?["pagination"] as? [String: Any])?["total"] as? Int == 0)
        }
    }
}
