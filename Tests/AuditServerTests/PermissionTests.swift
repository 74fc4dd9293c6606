import AuditTestSupport
import Foundation
import Testing

@Suite("Permissions: user_type, can_edit_assets, countries")
struct PermissionTests {
    @Test(arguments: Backend.allCases) func staffAuditOnlyTheirCountries(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let admin = try await server.user("root@example.com")
            let staff = try await server.user("sg@example.com", type: "STAFF", countries: ["SG"], canEditAssets: false)
            try await server.seed([("A1", "SG"), ("M1", "MY")])
            let forbidden = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"MY"}"#, token: staff)
            #expect(forbidden.status == 403 && forbidden.error == "FORBIDDEN")
            #expect(try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: staff).status == 201)
            let countries = try await server.call("GET", "/api/v1/audit/countries", token: staff)
            #expect((countries.data?["countries"] as? [[String: Any]])?.map { $0["country"] as? String } == ["SG"])
            let myAudit = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"MY"}"#, token: admin)
            let myID = try #require((myAudit.data?["audit"] as? [String: Any])?["id"] as? String)
            #expect(
                try await server.call("POST", "/api/v1/audit/scan", json: #"{"identifier":"M1","audit_id":"\#(myID)"}"#, token: staff).status == 403)
            #expect(try await server.call("GET", "/api/v1/audit/\(myID)/report", token: staff).status == 403)
            #expect(try await server.call("GET", "/api/v1/audit/status?country=MY", token: staff).status == 403)
            let scan = try await server.call("POST", "/api/v1/audit/scan", json: #"{"identifier":"A1"}"#, token: staff)
            #expect(scan.status == 200 && scan.data?["status"] as? String == "found_expected")
        }
    }

    @Test("Replaying another audit's scan_id reveals nothing of that audit", arguments: Backend.allCases)
    func replaysStayInTheirAudit(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let admin = try await server.user("root@example.com")
            let myStaff = try await server.user("my@example.com", type: "STAFF", countries: ["MY"], canEditAssets: false)
            try await server.seed([("SECRET-1", "SG"), ("M1", "MY")])
            _ = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: admin)
            _ = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"MY"}"#, token: admin)
            let sgStatus = try await server.call("GET", "/api/v1/audit/status?country=SG", token: admin)
            let sgID = try #require((sgStatus.data?["audit"] as? [String: Any])?["id"] as? String)
            let stored = try await server.call(
                "POST", "/api/v1/audit/scan", json: #"{"identifier":"SECRET-1","scan_id":"sg-scan-2","audit_id":"\#(sgID)"}"#, token: admin)
            #expect(stored.status == 200)
            // A user of MY only sends the same scan_id and identifier into the MY audit.
            let replay = try await server.call(
                "POST", "/api/v1/audit/scan", json: #"{"identifier":"SECRET-1","scan_id":"sg-scan-2"}"#, token: myStaff)
            #expect(replay.status == 409 && replay.error == "DUPLICATE", "\(replay.text)")
            #expect(!replay.text.contains(sgID) && !replay.text.contains("Laptop SECRET-1"), "\(replay.text)")
            let sg = try await server.call("GET", "/api/v1/audit/status?country=SG", token: admin)
            #expect((sg.data?["audit"] as? [String: Any])?["scanned_count"] as? Int == 1)
        }
    }

    @Test(arguments: Backend.allCases) func clientsMayReadButNotAuditOrChangeCustomers(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let admin = try await server.user("root@example.com")
            let client = try await server.user("client@example.com", type: "CLIENT", canEditAssets: false)
            try await server.seed([("A1", "SG")])
            _ = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: admin)
            #expect(try await server.call("POST", "/api/v1/audit/scan", json: #"{"identifier":"A1"}"#, token: client).status == 403)
            #expect(try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"MY"}"#, token: client).status == 403)
            #expect(try await server.call("GET", "/api/v1/audit/details/all", token: client).status == 200)
            let customer = #"{"name":"Acme","contact_number":"+65 1234","address":"1 Road","country":"SG"}"#
            #expect(try await server.call("POST", "/api/v2/customers", json: customer, token: client).status == 403)
            #expect(try await server.call("GET", "/api/v2/customers", token: client).status == 200)
        }
    }

    @Test(arguments: Backend.allCases) func assetAndAccessoryChangesNeedCanEditAssets(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let viewer = try await server.user("view@example.com", type: "STAFF", canEditAssets: false)
            let editor = try await server.user("edit@example.com", type: "STAFF", canEditAssets: true)
            let asset = #"{"asset_tag":"T1","name":"Laptop","country":"SG"}"#
            #expect(try await server.call("POST", "/api/v2/assets", json: asset, token: viewer).status == 403)
            #expect(try await server.call("POST", "/api/v2/accessories", json: #"{"name":"Mouse","category":"Input"}"#, token: viewer).status == 403)
            #expect(try await server.call("POST", "/api/v2/assets", json: asset, token: editor).status == 201)
            #expect(try await server.call("DELETE", "/api/v2/assets/1", token: viewer).status == 403)
            let customer = #"{"name":"Acme","contact_number":"+65 1234","address":"1 Road","country":"SG"}"#
            #expect(try await server.call("POST", "/api/v2/customers", json: customer, token: viewer).status == 201)
        }
    }

    @Test("History counts and pages only the audits of the user's countries", arguments: Backend.allCases)
    func historyIsFilteredBeforePaging(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let admin = try await server.user("root@example.com")
            let staff = try await server.user("sg@example.com", type: "STAFF", countries: ["SG"], canEditAssets: false)
            try await server.seed([("A1", "SG"), ("M1", "MY")])
            for country in ["MY", "SG", "MY", "SG", "MY"] {
                #expect(try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"\#(country)"}"#, token: admin).status == 201)
                #expect(try await server.call("POST", "/api/v1/audit/end", json: "{}", token: admin).status == 200)
            }
            let first = try await server.call("GET", "/api/v1/audit/history?per_page=2", token: staff)
            let audits = try #require(first.data?["audits"] as? [[String: Any]])
            #expect(audits.map { $0["country"] as? String } == ["SG", "SG"])
            let pagination = try #require(first.data?["pagination"] as? [String: Any])
            #expect(pagination["total"] as? Int == 2 && pagination["last_page"] as? Int == 1, "\(pagination)")
            let all = try await server.call("GET", "/api/v1/audit/history?per_page=2", token: admin)
            #expect((all.data?["pagination"] as? [String: Any])?["total"] as? Int == 5)
            let myID = try #require((all.data?["audits"] as? [[String: Any]])?.first { $0["country"] as? String == "MY" }?["id"] as? String)
            for path in [
                "/api/v1/audit/\(myID)", "/api/v1/audit/\(myID)/snapshot", "/api/v1/audit/\(myID)/report?format=csv",
                "/api/v1/audit/details/all?audit_id=\(myID)", "/api/v1/audit/history?country=MY"
            ] {
                let answer = try await server.call("GET", path, token: staff)
                #expect(answer.status == 403 && !answer.text.contains("M1"), "\(path): \(answer.text)")
            }
        }
    }
}
