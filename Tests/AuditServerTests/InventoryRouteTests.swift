import AuditTestSupport
import Foundation
import Testing

@Suite("The v2 inventory routes")
struct InventoryRouteTests {
    @Test(arguments: Backend.allCases) func assetsCreateListFindEditTransferArchiveDelete(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("admin@example.com")
            let created = try await server.call(
                "POST", "/api/v2/assets", json: #"{"asset_tag":"T1","serial_num":"S1","name":"Laptop","country":"sg","status":"DEPLOYED"}"#,
                token: token)
            #expect(created.status == 201 && created.data?["country"] as? String == "SG")
            let id = try #require(created.data?["id"] as? Int)
            let duplicate = try await server.call("POST", "/api/v2/assets", json: #"{"asset_tag":"T1","name":"Other","country":"SG"}"#, token: token)
            #expect(duplicate.status == 409 && duplicate.error == "DUPLICATE")
            let invalid = try await server.call("POST", "/api/v2/assets", json: #"{"asset_tag":"T2","country":"XX"}"#, token: token)
            #expect(invalid.status == 422 && (invalid.body["errors"] as? [String: [String]])?.keys.sorted() == ["country", "name"])
            let list = try await server.call("GET", "/api/v2/assets?status=DEPLOYED&country=SG&search=Lap", token: token)
            #expect((list.data?["assets"] as? [[String: Any]])?.count == 1)
            #expect(try await server.call("GET", "/api/v2/assets?status=LOST", token: token).status == 422)
            #expect(try await server.call("GET", "/api/v2/assets/find?identifier=S1", token: token).data?["asset_tag"] as? String == "T1")
            let none = try await server.call("GET", "/api/v2/assets/find?identifier=nope", token: token)
            #expect(none.status == 200 && none.body["data"] is NSNull)
            #expect(try await server.call("GET", "/api/v2/assets/\(id)", token: token).data?["name"] as? String == "Laptop")
            #expect(try await server.call("GET", "/api/v2/assets/999", token: token).status == 404)
            #expect(try await server.call("GET", "/api/v2/assets/abc", token: token).status == 404)
            let edited = try await server.call("PUT", "/api/v2/assets/\(id)", json: #"{"location":"Shelf 4"}"#, token: token)
            #expect(edited.data?["location"] as? String == "Shelf 4" && edited.data?["name"] as? String == "Laptop")
            let customer = try await server.call(
                "POST", "/api/v2/customers", json: #"{"name":"Acme","contact_number":"+65 1234","address":"1 Road","country":"SG"}"#, token: token)
            let customerID = try #require(customer.data?["id"] as? Int)
            let moved = try await server.call(
                "POST", "/api/v2/assets/\(id)/transfer", json: #"{"customer_id":\#(customerID),"reason":"new hire"}"#, token: token)
            #expect(moved.data?["customer_id"] as? Int == customerID)
            #expect(try await server.call("DELETE", "/api/v2/customers/\(customerID)", token: token).status == 409)
            let archived = try await server.call("DELETE", "/api/v2/assets/\(id)", token: token)
            #expect((archived.data?["asset"] as? [String: Any])?["status"] as? String == "ARCHIVED")
            #expect(try await server.call("DELETE", "/api/v2/assets/\(id)?mode=shred", token: token).status == 422)
            let deleted = try await server.call("DELETE", "/api/v2/assets/\(id)?mode=delete", token: token)
            #expect(deleted.data?["deleted"] as? Bool == true)
            #expect(try await server.call("DELETE", "/api/v2/customers/\(customerID)", token: token).status == 200)
            let imported = try await server.call(
                "POST", "/api/v2/assets/import",
                json:
                    #"{"rows":[{"line":2,"input":{"asset_tag":"I1","name":"A","country":"MY"}},{"line":3,"input":{"asset_tag":"I2","name":"B","country":"MY"}}]}"#,
                token: token)
            #expect(imported.data?["imported"] as? Int == 2)
        }
    }

    @Test(arguments: Backend.allCases) func accessoriesCheckoutAndCheckinFollowTheQuantityRules(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("admin@example.com")
            let customer = try await server.call(
                "POST", "/api/v2/customers", json: #"{"name":"Acme","contact_number":"123","address":"1 Road","country":"SG"}"#, token: token)
            let customerID = try #require(customer.data?["id"] as? Int)
            let created = try await server.call(
                "POST", "/api/v2/accessories", json: #"{"name":"Mouse","category":"Input","total_quantity":3}"#, token: token)
            #expect(created.status == 201)
            let id = try #require(created.data?["id"] as? Int)
            let out = try await server.call("POST", "/api/v2/accessories/\(id)/checkout", json: #"{"customer_id":\#(customerID)}"#, token: token)
            #expect(out.data?["available_quantity"] as? Int == 2)
            #expect(
                try await server.call(
                    "POST", "/api/v2/accessories/\(id)/checkout", json: #"{"customer_id":\#(customerID),"quantity":5}"#, token: token
                ).status == 422)
            #expect(try await server.call("DELETE", "/api/v2/accessories/\(id)", token: token).status == 409)
            #expect(
                try await server.call(
                    "POST", "/api/v2/accessories/\(id)/checkin", json: #"{"customer_id":\#(customerID),"quantity":2}"#, token: token
                ).status == 422)
            #expect(
                try await server.call("POST", "/api/v2/accessories/\(id)/checkin", json: #"{"customer_id":\#(customerID)}"#, token: token).status
                    == 200)
            #expect(
                try await server.call("PUT", "/api/v2/accessories/\(id)", json: #"{"notes":"blue"}"#, token: token).data?["notes"] as? String
                    == "blue")
            #expect((try await server.call("GET", "/api/v2/accessories", token: token).data?["accessories"] as? [Any])?.count == 1)
            #expect(try await server.call("GET", "/api/v2/accessories/\(id)", token: token).status == 200)
            #expect(try await server.call("DELETE", "/api/v2/accessories/\(id)", token: token).status == 200)
            #expect(try await server.call("GET", "/api/v2/accessories/\(id)", token: token).status == 404)
            #expect(
                try await server.call("PUT", "/api/v2/customers/\(customerID)", json: #"{"email":"x@acme.sg"}"#, token: token).data?["email"]
                    as? String == "x@acme.sg")
            #expect(try await server.call("GET", "/api/v2/customers/\(customerID)", token: token).status == 200)
        }
    }
}
