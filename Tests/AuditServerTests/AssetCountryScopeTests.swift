import AuditTestSupport
import Foundation
import Testing

/// Staff limited to some countries see and change only those countries' assets, as they may
/// see only those countries' audits.
@Suite("Assets are limited to the user's countries")
struct AssetCountryScopeTests {
    @Test(arguments: Backend.allCases)
    func staffSeeOnlyTheirCountriesAssets(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let admin = try await server.user("admin@example.com")
            let staff = try await server.user("sg-staff@example.com", type: "STAFF", countries: ["SG"], canEditAssets: true)
            try await server.seed([("SG-1", "SG"), ("MY-1", "MY")])
            let foreign = try #require(try await server.call("GET", "/api/v2/assets/find?identifier=MY-1", token: admin).data?["id"] as? Int)

            let audit = try await server.call("GET", "/api/v1/audit/status?country=MY", token: staff)
            #expect(audit.status == 403, "MY's audit is closed to SG staff: \(audit.text)")
            let list = try await server.call("GET", "/api/v2/assets?country=MY", token: staff)
            #expect(list.status == 403 && list.error == "FORBIDDEN", "and so is MY's inventory: \(list.text)")
            let own = try await server.call("GET", "/api/v2/assets", token: staff)
            #expect(((own.data?["assets"] as? [[String: Any]]) ?? []).compactMap { $0["asset_tag"] as? String } == ["SG-1"], "\(own.text)")
            #expect((own.data?["pagination"] as? [String: Any])?["total"] as? Int == 1)
            #expect(try await server.call("GET", "/api/v2/assets?country=SG", token: staff).status == 200)

            let found = try await server.call("GET", "/api/v2/assets/find?identifier=MY-1", token: staff)
            #expect(found.status == 200 && found.body["data"] is NSNull, "\(found.text)")
            #expect(try await server.call("GET", "/api/v2/assets/\(foreign)", token: staff).status == 404)
            let edit = #"{"asset_tag":"MY-1","name":"Renamed","country":"MY"}"#
            #expect(try await server.call("PUT", "/api/v2/assets/\(foreign)", json: edit, token: staff).status == 404)
            #expect(try await server.call("DELETE", "/api/v2/assets/\(foreign)", token: staff).status == 404)
            let create = #"{"asset_tag":"MY-2","name":"Laptop","country":"MY"}"#
            #expect(try await server.call("POST", "/api/v2/assets", json: create, token: staff).status == 403)

            let all = try await server.call("GET", "/api/v2/assets", token: admin)
            #expect((all.data?["pagination"] as? [String: Any])?["total"] as? Int == 2, "ADMIN sees every country")
            #expect(try await server.call("GET", "/api/v2/assets/\(foreign)", token: admin).status == 200)
        }
    }
}
