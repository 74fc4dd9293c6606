import AuditTestSupport
import Foundation
import Testing

/// Staff limited to some countries, meeting another country's records through their own work:
/// a reconcile changes only assets they may change, a scan of another country's tag tells only
/// the tag, and accessories are limited to their countries as assets are.
@Suite("Records of another country")
struct CrossCountryTests {
    @Test("Reconciling an SG audit changes no MY asset for an SG-only editor, and lists it as skipped", arguments: Backend.allCases)
    func reconcileLeavesOtherCountriesAlone(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let admin = try await server.user("admin@example.com")
            let sgEditor = try await server.user("sg@example.com", type: "STAFF", countries: ["SG"], canEditAssets: true)
            try await server.seed([("SG-1", "SG"), ("SG-2", "SG"), ("SG-3", "SG")])
            try await server.seed([("MY-1", "MY")], status: "MISSING")
            let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: sgEditor)
            let id = try #require((started.data?["audit"] as? [String: Any])?["id"] as? String)
            // SG-3 is in the audit's expected set, then moves to MY; MY-1 is found as unexpected.
            let sg3 = try #require(try await server.call("GET", "/api/v2/assets/find?identifier=SG-3", token: admin).data?["id"] as? Int)
            let moved = try await server.call("PUT", "/api/v2/assets/\(sg3)", json: #"{"country":"MY"}"#, token: admin)
            #expect(moved.status == 200, "\(moved.text)")
            for (n, tag) in ["SG-1", "MY-1"].enumerated() {
                let scan = try await server.call(
                    "POST", "/api/v1/audit/scan", json: #"{"identifier": "\#(tag)", "audit_id": "\#(id)", "scan_id": "s-\#(n)"}"#, token: sgEditor)
                #expect(scan.status == 200, "\(scan.text)")
            }
            _ = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id": "\#(id)", "force": true}"#, token: sgEditor)

            let body = #"{"restore_found": true, "mark_missing": true}"#
            let preview = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: #"{"preview": true}"#, token: sgEditor)
            #expect(preview.status == 200 && preview.data?["skipped_total"] as? Int == 2, "\(preview.text)")
            let applied = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: body, token: sgEditor)
            #expect(applied.status == 200, "\(applied.text)")
            let changes = (applied.data?["changes"] as? [[String: Any]] ?? []).compactMap { $0["asset_tag"] as? String }
            #expect(changes == ["SG-2"], "only SG's missing SG-2 is marked: \(applied.text)")
            let skipped = (applied.data?["skipped"] as? [[String: Any]]) ?? []
            #expect(
                Set(skipped.map { "\($0["asset_tag"] as? String ?? "")/\($0["action"] as? String ?? "")/\($0["reason"] as? String ?? "")" })
                    == ["SG-3/mark_missing/other_country", "MY-1/restore_found/other_country"], "\(applied.text)")
            #expect(applied.data?["skipped_total"] as? Int == 2 && (applied.data?["message"] as? String)?.contains("2 left alone") == true)
            #expect(skipped.allSatisfy { $0["asset_id"] == nil && $0["name"] == nil }, "only the tag is told")
            let my1 = try await server.call("GET", "/api/v2/assets/find?identifier=MY-1", token: admin)
            #expect(my1.data?["status"] as? String == "MISSING", "MY-1 stays as it was: \(my1.text)")
            let sg3Now = try await server.call("GET", "/api/v2/assets/find?identifier=SG-3", token: admin)
            #expect(sg3Now.data?["status"] as? String == "IN_STOCK", "\(sg3Now.text)")

            // ADMIN, who may change every country, restores MY-1 and marks SG-3.
            let byAdmin = try await server.call("POST", "/api/v1/audit/\(id)/reconcile", json: body, token: admin)
            #expect(byAdmin.data?["total"] as? Int == 2 && byAdmin.data?["skipped_total"] as? Int == 0, "\(byAdmin.text)")
            #expect(try await server.call("GET", "/api/v2/assets/find?identifier=MY-1", token: admin).data?["status"] as? String == "IN_STOCK")
        }
    }

    @Test("SG staff scanning an MY tag learn its tag and other_country, nothing of the record", arguments: Backend.allCases)
    func scansOfAnotherCountryShowOnlyTheTag(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let admin = try await server.user("admin@example.com")
            let staff = try await server.user("sg@example.com", type: "STAFF", countries: ["SG"], canEditAssets: false)
            let both = try await server.user("both@example.com", type: "STAFF", countries: ["SG", "MY"], canEditAssets: false)
            try await server.seed([("SG-1", "SG"), ("MY-1", "MY"), ("MY-2", "MY")])
            let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: admin)
            let id = try #require((started.data?["audit"] as? [String: Any])?["id"] as? String)
            let secrets = ["Laptop MY-1", "SN-MY-1", "\"MY\"", "Laptop MY-2", "SN-MY-2"]

            let scan = try await server.call(
                "POST", "/api/v1/audit/scan", json: #"{"identifier": "MY-1", "audit_id": "\#(id)", "scan_id": "s-1"}"#, token: staff)
            #expect(scan.status == 200 && scan.data?["reason"] as? String == "other_country", "\(scan.text)")
            let asset = try #require(scan.data?["asset"] as? [String: Any])
            #expect(asset["asset_tag"] as? String == "MY-1")
            for field in ["id", "name", "serial_num", "company", "location", "country", "model", "status"] {
                #expect(asset[field] == nil || asset[field] is NSNull, "\(field) is withheld: \(scan.text)")
            }
            #expect(!secrets.contains { scan.text.contains($0) }, "\(scan.text)")
            #expect((scan.data?["message"] as? String)?.contains("another country") == true)

            let batch = try await server.call(
                "POST", "/api/v1/audit/scans", json: #"{"scans": [{"identifier": "MY-2", "audit_id": "\#(id)", "scan_id": "s-2"}]}"#, token: staff)
            #expect(batch.status == 200 && !secrets.contains { batch.text.contains($0) }, "\(batch.text)")
            #expect(batch.text.contains("MY-2") && batch.text.contains("other_country"))

            let list = try await server.call("GET", "/api/v1/audit/details/unexpected?audit_id=\(id)", token: staff)
            #expect(list.status == 200 && !secrets.contains { list.text.contains($0) }, "\(list.text)")
            let tags = ((list.data?["assets"] as? [[String: Any]]) ?? []).compactMap { $0["asset_tag"] as? String }
            #expect(Set(tags) == ["MY-1", "MY-2"], "\(list.text)")

            // Someone who may read MY sees the record.
            let full = try await server.call("GET", "/api/v1/audit/details/unexpected?audit_id=\(id)", token: both)
            #expect(full.text.contains("Laptop MY-1") && full.text.contains("SN-MY-2"), "\(full.text)")
            let again = try await server.call(
                "POST", "/api/v1/audit/scan", json: #"{"identifier": "MY-1", "audit_id": "\#(id)", "scan_id": "s-3"}"#, token: both)
            #expect(again.text.contains("Laptop MY-1"), "\(again.text)")
        }
    }

    @Test("An SG-only editor creates, edits, checks out and lists only SG accessories", arguments: Backend.allCases)
    func accessoriesAreLimitedToTheEditorsCountries(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let admin = try await server.user("admin@example.com")
            let sgEditor = try await server.user("sg@example.com", type: "STAFF", countries: ["SG"], canEditAssets: true)
            let customer = try await server.call(
                "POST", "/api/v2/customers", json: #"{"name":"Acme","contact_number":"123","address":"1 Road","country":"SG"}"#, token: admin)
            let customerID = try #require(customer.data?["id"] as? Int)
            let my = try await server.call(
                "POST", "/api/v2/accessories", json: #"{"name":"MY mouse","category":"Input","total_quantity":3,"country":"MY"}"#, token: admin)
            let myID = try #require(my.data?["id"] as? Int)
            let shared = try await server.call(
                "POST", "/api/v2/accessories", json: #"{"name":"Shared cable","category":"Cable","total_quantity":3}"#, token: admin)
            let sharedID = try #require(shared.data?["id"] as? Int)

            let create = try await server.call(
                "POST", "/api/v2/accessories", json: #"{"name":"Mouse","category":"Input","total_quantity":3,"country":"MY"}"#, token: sgEditor)
            #expect(create.status == 403, "\(create.text)")
            let noCountry = try await server.call("POST", "/api/v2/accessories", json: #"{"name":"Mouse","category":"Input"}"#, token: sgEditor)
            #expect(noCountry.status == 403, "\(noCountry.text)")
            let own = try await server.call(
                "POST", "/api/v2/accessories", json: #"{"name":"SG mouse","category":"Input","total_quantity":3,"country":"sg"}"#, token: sgEditor)
            #expect(own.status == 201, "\(own.text)")
            let ownID = try #require(own.data?["id"] as? Int)

            #expect(try await server.call("GET", "/api/v2/accessories/\(myID)", token: sgEditor).status == 404)
            #expect(try await server.call("PUT", "/api/v2/accessories/\(myID)", json: #"{"notes":"mine"}"#, token: sgEditor).status == 404)
            let checkout = #"{"customer_id":\#(customerID)}"#
            #expect(try await server.call("POST", "/api/v2/accessories/\(myID)/checkout", json: checkout, token: sgEditor).status == 404)
            #expect(try await server.call("POST", "/api/v2/accessories/\(myID)/checkin", json: checkout, token: sgEditor).status == 404)
            #expect(try await server.call("DELETE", "/api/v2/accessories/\(myID)", token: sgEditor).status == 404)
            // Moving its own accessory to MY, or changing shared stock: 403.
            #expect(try await server.call("PUT", "/api/v2/accessories/\(ownID)", json: #"{"country":"MY"}"#, token: sgEditor).status == 403)
            #expect(try await server.call("POST", "/api/v2/accessories/\(sharedID)/checkout", json: checkout, token: sgEditor).status == 403)
            #expect(try await server.call("GET", "/api/v2/accessories/\(sharedID)", token: sgEditor).status == 200)

            #expect(try await server.call("POST", "/api/v2/accessories/\(ownID)/checkout", json: checkout, token: sgEditor).status == 200)
            #expect(try await server.call("PUT", "/api/v2/accessories/\(ownID)", json: #"{"notes":"blue"}"#, token: sgEditor).status == 200)
            let list = try await server.call("GET", "/api/v2/accessories", token: sgEditor)
            let names = ((list.data?["accessories"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String }
            #expect(names == ["Shared cable", "SG mouse"], "\(list.text)")
            #expect((list.data?["pagination"] as? [String: Any])?["total"] as? Int == 2)
            let all = try await server.call("GET", "/api/v2/accessories", token: admin)
            #expect((all.data?["pagination"] as? [String: Any])?["total"] as? Int == 3)
            let mine = try await server.call("GET", "/api/v2/accessories/\(myID)", token: admin)
            #expect(mine.data?["available_quantity"] as? Int == 3, "untouched: \(mine.text)")
        }
    }
}
