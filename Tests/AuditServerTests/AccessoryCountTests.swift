import AuditTestSupport
import Foundation
import Testing

/// Quantities in audits: accessories with a tag and a location, expected by an audit of their
/// country with the quantity not checked out, counted by scans and typed counts at the
/// station's location, shown in the reports, and set by reconciliation; on both back ends.
@Suite("Accessories counted in audits")
struct AccessoryCountTests {
    private func create(_ server: TestServer, _ json: String, token: String) async throws -> Int {
        let answer = try await server.call("POST", "/api/v2/accessories", json: json, token: token)
        #expect(answer.status == 201, "\(answer.text)")
        return try #require(answer.data?["id"] as? Int)
    }

    /// An SG audit of A1 and A2 that expects CABLE (10, 2 checked out) at Dock A; MOUSE-MY is of
    /// MY and PLAIN has no tag, so neither is expected. Returns the audit id and CABLE's id.
    private func audit(_ server: TestServer, token: String) async throws -> (id: String, cable: Int) {
        try await server.seed([("A1", "SG"), ("A2", "SG")])
        let cable = try await create(
            server, #"{"name":"USB-C cable","category":"Cables","total_quantity":10,"country":"SG","tag":"CABLE","location":"Dock A"}"#,
            token: token)
        _ = try await create(server, #"{"name":"Mouse","category":"Mice","total_quantity":4,"country":"MY","tag":"MOUSE-MY"}"#, token: token)
        _ = try await create(server, #"{"name":"Plain","category":"Misc","total_quantity":3,"country":"SG"}"#, token: token)
        let customer = try await server.call(
            "POST", "/api/v2/customers", json: #"{"name":"Acme","contact_number":"1","address":"1 Road","country":"SG"}"#, token: token)
        let customerID = try #require(customer.data?["id"] as? Int)
        let out = try await server.call(
            "POST", "/api/v2/accessories/\(cable)/checkout", json: #"{"customer_id":\#(customerID),"quantity":2}"#, token: token)
        #expect(out.status == 200, "\(out.text)")
        let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
        return (try #require((started.data?["audit"] as? [String: Any])?["id"] as? String), cable)
    }

    private func scan(_ server: TestServer, _ tag: String, id: String, audit: String, location: String, token: String) async throws
        -> [String: Any]
    {
        let answer = try await server.call(
            "POST", "/api/v1/audit/scan",
            json: #"{"identifier":"\#(tag)","audit_id":"\#(audit)","scan_id":"\#(id)","location":"\#(location)"}"#, token: token)
        #expect(answer.status == 200, "\(answer.text)")
        return answer.data ?? [:]
    }

    @Test("A tag is unique among assets' tags and serials and accessories' tags", arguments: Backend.allCases)
    func uniqueTags(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("lead@example.com")
            try await server.seed([("A1", "SG")])
            _ = try await create(server, #"{"name":"Cable","category":"Cables","tag":"CABLE","location":"Dock A"}"#, token: token)
            for json in [#"{"name":"Other","category":"Cables","tag":"A1"}"#, #"{"name":"Other","category":"Cables","tag":"CABLE"}"#] {
                let refused = try await server.call("POST", "/api/v2/accessories", json: json, token: token)
                #expect(refused.status == 409 || refused.status == 422, "\(refused.text)")
                #expect(refused.text.contains("tag"))
            }
            let asset = try await server.call("POST", "/api/v2/assets", json: #"{"asset_tag":"CABLE","name":"x","country":"SG"}"#, token: token)
            #expect(asset.status == 409 || asset.status == 422, "\(asset.text)")
            let serial = try await server.call(
                "POST", "/api/v2/assets", json: #"{"asset_tag":"A9","serial_num":"CABLE","name":"x","country":"SG"}"#, token: token)
            #expect(serial.status == 409 || serial.status == 422, "\(serial.text)")
            let list = try await server.call("GET", "/api/v2/accessories", token: token)
            let first = try #require((list.data?["accessories"] as? [[String: Any]])?.first)
            #expect(first["tag"] as? String == "CABLE" && first["location"] as? String == "Dock A")
        }
    }

    @Test("Scans count one each and a typed count sets the quantity at a location; the asset numbers do not move", arguments: Backend.allCases)
    func counting(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("lead@example.com")
            let (id, _) = try await audit(server, token: token)
            var last: [String: Any] = [:]
            for n in 1...3 { last = try await scan(server, "CABLE", id: "c\(n)", audit: id, location: "Dock A", token: token) }
            #expect(last["status"] as? String == "accessory_counted")
            let tally = try #require(last["accessory"] as? [String: Any])
            #expect(tally["counted"] as? Int == 3 && tally["expected"] as? Int == 8 && tally["difference"] as? Int == -5)
            let progress = try #require(last["progress"] as? [String: Any])
            #expect(progress["total_assets"] as? Int == 2 && progress["scanned_count"] as? Int == 0 && progress["unexpected_count"] as? Int == 0)
            // The same scan_id again counts nothing again.
            let again = try await scan(server, "CABLE", id: "c3", audit: id, location: "Dock A", token: token)
            #expect((again["accessory"] as? [String: Any])?["counted"] as? Int == 3)
            // Another country's accessory is not this audit's: unknown, as before.
            #expect(try await scan(server, "MOUSE-MY", id: "m1", audit: id, location: "Dock A", token: token)["status"] as? String == "unknown")

            let typed = try await server.call(
                "POST", "/api/v1/audit/count", json: #"{"tag":"CABLE","quantity":5,"location":"Dock B","audit_id":"\#(id)"}"#, token: token)
            #expect(typed.status == 200, "\(typed.text)")
            #expect(typed.data?["counted_here"] as? Int == 5 && (typed.data?["accessory"] as? [String: Any])?["counted"] as? Int == 8)
            let reset = try await server.call("POST", "/api/v1/audit/count", json: #"{"tag":"CABLE","quantity":2,"location":"Dock A"}"#, token: token)
            #expect((reset.data?["accessory"] as? [String: Any])?["counted"] as? Int == 7, "\(reset.text)")
            let unknown = try await server.call("POST", "/api/v1/audit/count", json: #"{"tag":"PLAIN","quantity":2}"#, token: token)
            #expect(unknown.status == 404, "\(unknown.text)")
            let negative = try await server.call("POST", "/api/v1/audit/count", json: #"{"tag":"CABLE","quantity":-1}"#, token: token)
            #expect(negative.status == 422, "\(negative.text)")

            let listed = try await server.call("GET", "/api/v1/audit/\(id)/accessories", token: token)
            let rows = try #require(listed.data?["accessories"] as? [[String: Any]], "\(listed.text)")
            #expect(rows.count == 1 && rows[0]["tag"] as? String == "CABLE" && rows[0]["location"] as? String == "Dock A")
            #expect(rows[0]["expected"] as? Int == 8 && rows[0]["counted"] as? Int == 7 && rows[0]["difference"] as? Int == -1)
            let status = try await server.call("GET", "/api/v1/audit/\(id)", token: token)
            #expect((status.data?["audit"] as? [String: Any])?["total_assets"] as? Int == 2)

            _ = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(id)"}"#, token: token)
            let late = try await server.call("POST", "/api/v1/audit/count", json: #"{"tag":"CABLE","quantity":1,"audit_id":"\#(id)"}"#, token: token)
            #expect(late.status == 409, "\(late.text)")

            let json = try await server.call("GET", "/api/v1/audit/\(id)/report?format=json", token: token)
            let reported = try #require(json.body["accessories"] as? [[String: Any]])
            #expect(reported.count == 1 && reported[0]["tag"] as? String == "CABLE" && reported[0]["name"] as? String == "USB-C cable")
            #expect(reported[0]["expected"] as? Int == 8 && reported[0]["counted"] as? Int == 7 && reported[0]["difference"] as? Int == -1)
            #expect((json.body["summary"] as? [String: Any])?["total_assets"] as? Int == 2)
            let csv = try await server.call("GET", "/api/v1/audit/\(id)/report?format=csv", token: token)
            #expect(csv.text.contains("\r\n\r\naccessory_tag,name,location,expected,counted,difference\r\nCABLE,USB-C cable,Dock A,8,7,-1\r\n"))
        }
    }

    @Test("Reconcile's set_quantities makes each total what was counted plus what is checked out, once, with history", arguments: Backend.allCases)
    func setQuantities(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("lead@example.com")
            let (id, cable) = try await audit(server, token: token)
            for n in 1...7 { _ = try await scan(server, "CABLE", id: "c\(n)", audit: id, location: "Dock A", token: token) }
            _ = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(id)"}"#, token: token)

            let preview = try await server.call(
                "POST", "/api/v1/audit/\(id)/reconcile", json: #"{"preview":true,"set_quantities":true}"#, token: token)
            #expect(preview.status == 200 && preview.data?["total"] as? Int == 1, "\(preview.text)")
            let change = try #require((preview.data?["changes"] as? [[String: Any]])?.first)
            #expect(change["asset_tag"] as? String == "CABLE" && change["accessory_id"] as? Int == cable)
            #expect(change["field"] as? String == "total_quantity" && change["from"] as? String == "10" && change["to"] as? String == "9")
            #expect(try await server.call("GET", "/api/v2/accessories/\(cable)", token: token).data?["total_quantity"] as? Int == 10)

            let applied = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: #"{"set_quantities":true}"#, token: token)
            #expect(applied.data?["total"] as? Int == 1 && (applied.data?["counts"] as? [String: Any])?["set_quantities"] as? Int == 1)
            let after = try await server.call("GET", "/api/v2/accessories/\(cable)", token: token)
            #expect(after.data?["total_quantity"] as? Int == 9 && after.data?["available_quantity"] as? Int == 7)
            let second = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: #"{"set_quantities":true}"#, token: token)
            #expect(second.data?["total"] as? Int == 0, "\(second.text)")
        }
    }
}
