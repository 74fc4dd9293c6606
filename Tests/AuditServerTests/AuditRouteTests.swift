import AuditTestSupport
import Foundation
import Testing

@Suite("The audit routes")
struct AuditRouteTests {
    @Test(arguments: Backend.allCases) func aWholeAuditThroughTheAPI(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("lead@example.com")
            try await server.seed([("A1", "SG"), ("A2", "SG"), ("A3", "SG"), ("M1", "MY")])
            let countries = try await server.call("GET", "/api/v1/audit/countries", token: token)
            #expect((countries.data?["countries"] as? [[String: Any]])?.count == 2)
            #expect((try await server.call("GET", "/api/v1/audit/status", token: token)).data?["active"] as? Bool == false)

            let start = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"sg"}"#, token: token)
            #expect(start.status == 201)
            let audit = try #require(start.data?["audit"] as? [String: Any])
            let auditID = try #require(audit["id"] as? String)
            #expect(audit["total_assets"] as? Int == 3 && audit["is_active"] as? Bool == true)
            let again = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
            #expect(again.status == 409 && again.error == "AUDIT_ALREADY_ACTIVE")
            #expect(again.data?["audit_id"] as? String == auditID)

            func scan(_ identifier: String, scanID: String? = nil) async throws -> TestServer.Answer {
                let id = scanID.map { #", "scan_id": "\#($0)""# } ?? ""
                return try await server.call(
                    "POST", "/api/v1/audit/scan", json: #"{"identifier": "\#(identifier)"\#(id), "device_name": "kiosk-2"}"#, token: token)
            }
            #expect(try await scan("A1", scanID: "s-1").data?["status"] as? String == "found_expected")
            let repeatScan = try await scan("A1", scanID: "s-1")
            #expect(repeatScan.data?["status"] as? String == "found_expected")
            #expect((repeatScan.data?["progress"] as? [String: Any])?["scanned_count"] as? Int == 1)
            let second = try await scan("SN-A1")
            #expect(second.data?["status"] as? String == "already_scanned")
            #expect((second.data?["first_scan"] as? [String: Any])?["station"] as? String == "kiosk-2")
            #expect((second.data?["first_scan"] as? [String: Any])?["user"] as? String == "lead")
            #expect(try await scan("M1").data?["reason"] as? String == "other_country")
            let unknown = try await scan("ZZZ")
            #expect(unknown.data?["status"] as? String == "unknown")
            let progress = try #require(unknown.data?["progress"] as? [String: Any])
            #expect(progress["scanned_count"] as? Int == 1 && progress["missing_count"] as? Int == 2 && progress["unexpected_count"] as? Int == 2)

            let missing = try await server.call("GET", "/api/v1/audit/details/missing?per_page=1&page=2", token: token)
            #expect((missing.data?["assets"] as? [[String: Any]])?.first?["asset_tag"] as? String == "A3")
            let pagination = try #require(missing.data?["pagination"] as? [String: Any])
            #expect(pagination["total"] as? Int == 2 && pagination["last_page"] as? Int == 2 && pagination["per_page"] as? Int == 1)
            let unexpected = try await server.call("GET", "/api/v1/audit/details/unexpected?search=ZZ", token: token)
            #expect((unexpected.data?["assets"] as? [[String: Any]])?.map { $0["identifier"] as? String } == ["ZZZ"])
            #expect(try await server.call("GET", "/api/v1/audit/details/bogus", token: token).status == 404)

            let csv = try await server.call("GET", "/api/v1/audit/\(auditID)/report?format=csv", token: token)
            #expect(csv.status == 200 && csv.text.contains("A3") && csv.text.contains("missing"))
            let json = try await server.call("GET", "/api/v1/audit/\(auditID)/report?format=json", token: token)
            #expect((json.body["summary"] as? [String: Any])?["scanned_count"] as? Int == 1)
            #expect(try await server.call("GET", "/api/v1/audit/\(auditID)/report?format=xml", token: token).status == 422)
            // The copy a station takes: NDJSON lines of the audit, the expected set and the unexpected
            // entries, and nothing else of the inventory.
            let snapshot = try await server.call("GET", "/api/v1/audit/\(auditID)/snapshot", token: token)
            let lines = snapshot.text.split(separator: "\n")
            #expect(snapshot.status == 200 && lines.first?.hasPrefix(#"{"audit""#) == true && lines.last?.hasPrefix(#"{"end""#) == true)
            #expect(lines.filter { $0.hasPrefix(#"["e","#) }.count == 3 && lines.filter { $0.hasPrefix(#"["u","#) }.count == 2)
            #expect(try await server.call("GET", "/api/v1/audit/\(auditID)", token: token).data?["audit"] != nil)
            #expect(try await server.call("GET", "/api/v1/audit/no-such-audit", token: token).status == 404)

            let end = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(auditID)"}"#, token: token)
            #expect(end.status == 200)
            #expect((end.data?["summary"] as? [String: Any])?["missing"] as? [Any] != nil)
            let late = try await server.call("POST", "/api/v1/audit/scan", json: #"{"identifier":"A2","audit_id":"\#(auditID)"}"#, token: token)
            #expect(late.status == 409 && late.error == "AUDIT_ENDED")
            #expect(try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(auditID)"}"#, token: token).status == 409)
            #expect(try await server.call("POST", "/api/v1/audit/end", json: "{}", token: token).error == "NO_ACTIVE_AUDIT")
            let history = try await server.call("GET", "/api/v1/audit/history?country=SG", token: token)
            #expect((history.data?["audits"] as? [[String: Any]])?.first?["is_active"] as? Bool == false)
        }
    }

    @Test(arguments: Backend.allCases) func aScanWithNoRunningAuditIs409(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("solo@example.com")
            let answer = try await server.call("POST", "/api/v1/audit/scan", json: #"{"identifier":"A1"}"#, token: token)
            #expect(answer.status == 409 && answer.error == "NO_ACTIVE_AUDIT")
        }
    }

    @Test("POST /end with no body at all ends the only running audit", arguments: Backend.allCases)
    func endWithoutBody(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("ender@example.com")
            try await server.seed([("E1", "SG")])
            #expect(try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token).status == 201)
            let ended = try await server.call("POST", "/api/v1/audit/end", token: token)
            #expect(ended.status == 200, "\(ended.text.prefix(200))")
            #expect(((ended.data?["summary"] as? [String: Any])?["audit"] as? [String: Any])?["is_active"] as? Bool == false)
            let malformed = try await server.call("POST", "/api/v1/audit/end", json: "{not json", token: token)
            #expect(malformed.status == 400)
        }
    }

    @Test("An unknown identifier's asset fields are null in the unexpected list, not left out", arguments: Backend.allCases)
    func unknownIdentifiersSendNullAssetFields(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("lead@example.com")
            try await server.seed([("A1", "SG")])
            _ = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
            _ = try await server.call("POST", "/api/v1/audit/scan", json: #"{"identifier":"NOBODY-1"}"#, token: token)
            let list = try await server.call("GET", "/api/v1/audit/details/unexpected", token: token)
            let entry = try #require((list.data?["assets"] as? [[String: Any]])?.first)
            #expect(entry["identifier"] as? String == "NOBODY-1" && entry["reason"] as? String == "unknown")
            for key in ["id", "asset_tag", "serial_num", "name", "model", "status", "location", "company"] {
                #expect(entry[key] is NSNull, "\(key) is \(String(describing: entry[key]))")
            }
        }
    }

    @Test("A country the user may audit is listed with 0 assets when it has none", arguments: Backend.allCases)
    func emptyCountriesOfTheUserAreListed(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let staff = try await server.user("sg@example.com", type: "STAFF", countries: ["SG", "MY"], canEditAssets: false)
            try await server.seed([("M1", "MY"), ("T1", "TH")])
            let answer = try await server.call("GET", "/api/v1/audit/countries", token: staff)
            let countries = try #require(answer.data?["countries"] as? [[String: Any]])
            #expect(countries.map { $0["country"] as? String } == ["MY", "SG"])
            #expect(countries.last?["expected_assets"] as? Int == 0)
        }
    }

    @Test(
        "The scan trail lists every scan in order with who, where, how and the outcome; the summary counts per station and user",
        arguments: Backend.allCases)
    func theScanTrailAndTallies(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let ann = try await server.user("ann@example.com")
            let bob = try await server.user("bob@example.com")
            try await server.seed([("A1", "SG"), ("A2", "SG")])
            let start = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: ann)
            let auditID = try #require((start.data?["audit"] as? [String: Any])?["id"] as? String)
            for (identifier, token, device, source) in [
                ("A1", ann, "dock-1", "camera"), ("A1", bob, "dock-2", "manual"),
                ("X9", bob, "dock-2", "manual"), ("A2", bob, "dock-2", "image")
            ] {
                _ = try await server.call(
                    "POST", "/api/v1/audit/scan", json: #"{"identifier":"\#(identifier)","device_name":"\#(device)","source":"\#(source)"}"#,
                    token: token)
            }
            let page = try await server.call("GET", "/api/v1/audit/\(auditID)/scans?per_page=3", token: ann)
            let scans = try #require(page.data?["scans"] as? [[String: Any]])
            #expect(scans.map { $0["identifier"] as? String } == ["A1", "A1", "X9"])
            #expect(scans.map { $0["status"] as? String } == ["found_expected", "already_scanned", "unknown"])
            #expect(scans.map { $0["user"] as? String } == ["ann", "bob", "bob"])
            #expect(scans.map { $0["station"] as? String } == ["dock-1", "dock-2", "dock-2"])
            #expect(scans.first?["source"] as? String == "camera" && scans.first?["scan_id"] is String)
            // The matched asset's name (none for an identifier no asset has).
            #expect(scans.map { $0["asset_name"] as? String } == ["Laptop A1", "Laptop A1", nil])
            #expect((page.data?["pagination"] as? [String: Any])?["total"] as? Int == 4)
            let end = try await server.call("POST", "/api/v1/audit/end", json: "{}", token: ann)
            let summary = try #require(end.data?["summary"] as? [String: Any])
            let byUser = try #require(summary["by_user"] as? [[String: Any]])
            #expect(byUser.map { $0["name"] as? String } == ["bob", "ann"])
            #expect(byUser.map { $0["scans"] as? Int } == [3, 1] && byUser.map { $0["found"] as? Int } == [1, 1])
            #expect(byUser.first?["unexpected"] as? Int == 1)
            let byStation = try #require(summary["by_station"] as? [[String: Any]])
            #expect(byStation.map { $0["name"] as? String } == ["dock-2", "dock-1"])
        }
    }
}
