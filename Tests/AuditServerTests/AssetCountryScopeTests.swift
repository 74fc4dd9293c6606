import AuditTestSupport
import Foundation
import TestKit
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

    @Test("An editor limited to SG imports no MY row, by CSV or JSON: the line is named and nothing is stored", arguments: Backend.allCases)
    func importsStayInTheEditorsCountries(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            let admin = try await server.user("admin@example.com")
            let staff = try await server.user("sg-staff@example.com", type: "STAFF", countries: ["SG"], canEditAssets: true)
            let csv = CSVFixture("asset_tag", "serial_num", "name", "country").row("SG-10", "", "Laptop", "SG").row("MY-10", "", "Laptop", "my").text
            let refused = try await CSVImportRouteTests.post(csv, to: server, token: staff)
            #expect(refused.status == 422, "\(refused.body)")
            let problems = (refused.body["errors"] as? [String: [String]])?["line 3"] ?? []
            #expect(problems.contains { $0.contains("may not change the assets of MY") }, "\(refused.body)")
            let json = #"{"rows":[{"line":2,"input":{"asset_tag":"MY-11","name":"Laptop","country":"MY"}}]}"#
            let jsonRefused = try await server.call("POST", "/api/v2/assets/import", json: json, token: staff)
            #expect(jsonRefused.status == 422 && jsonRefused.text.contains("may not change the assets of MY"), "\(jsonRefused.text)")
            let all = try await server.call("GET", "/api/v2/assets", token: admin)
            #expect((all.data?["pagination"] as? [String: Any])?["total"] as? Int == 0, "nothing stored: \(all.text)")
            let own = try await CSVImportRouteTests.post(
                CSVFixture("asset_tag", "serial_num", "name", "country").row("SG-10", "", "Laptop", "SG").text, to: server, token: staff)
            #expect(own.status == 200, "\(own.body)")
            let adminImport = try await CSVImportRouteTests.post(
                CSVFixture("asset_tag", "serial_num", "name", "country").row("MY-12", "", "Laptop", "MY").text, to: server, token: admin)
            #expect(adminImport.status == 200, "\(adminImport.body)")
        }
    }
}
