import AuditTestSupport
import Foundation
import InventoryCore
import Testing

@Suite("An audit's summary, and the history's filters")
struct AuditSummaryRouteTests {
    @Test("GET /audit/{id}/summary counts by location, station, user and hour in the database", arguments: Backend.allCases)
    func summaryByLocationStationUserAndHour(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("root@example.com")
            for (tag, location) in [("SG-1", "Dock A"), ("SG-2", "Dock A"), ("SG-3", "Dock B"), ("SG-4", nil)] {
                _ = try await server.parts.backend.assets.create(
                    AssetInput(assetTag: tag, name: "Laptop \(tag)", status: "IN_STOCK", country: "SG", location: location))
            }
            let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
            let auditID = try #require((started.data?["audit"] as? [String: Any])?["id"] as? String)
            for (tag, station, time, id) in [
                ("SG-1", "kiosk-1", "10:30", "s1"), ("SG-3", "kiosk-2", "11:05", "s2"), ("GHOST-1", "kiosk-2", "11:10", "s3"),
                ("SG-2", "kiosk-1", "11:20", "s4"), ("SG-1", "kiosk-2", "13:59", "s5")
            ] {
                let scan = try await server.call(
                    "POST", "/api/v1/audit/scan",
                    json:
                        #"{"identifier":"\#(tag)","scan_id":"\#(id)","device_name":"\#(station)","location":"Dock A","scanned_at":"2026-05-12T\#(time):00Z"}"#,
                    token: token)
                #expect(scan.status == 200, "\(scan.text)")
            }
            #expect(try await server.call("POST", "/api/v1/audit/scans/s4/void", json: #"{"reason":"wrong shelf"}"#, token: token).status == 200)

            let answer = try await server.call("GET", "/api/v1/audit/\(auditID)/summary", token: token)
            #expect(answer.status == 200, "\(answer.text)")
            let data = try #require(answer.data)
            #expect(data["audit_id"] as? String == auditID)
            let locations = try #require(data["by_location"] as? [[String: Any]])
            #expect(locations.map { $0["location"] as? String } == ["Dock A", "Dock B", nil])
            #expect(
                locations.map { [$0["expected"], $0["found"], $0["missing"], $0["misplaced"]] as? [Int] } == [
                    [2, 1, 1, 0], [1, 1, 0, 1], [1, 0, 1, 0]
                ])
            let stations = try #require(data["by_station"] as? [[String: Any]])
            #expect(stations.map { $0["name"] as? String } == ["kiosk-2", "kiosk-1"])
            #expect(stations.map { [$0["scans"], $0["found"], $0["unexpected"]] as? [Int] } == [[3, 1, 1], [1, 1, 0]])
            let users = try #require(data["by_user"] as? [[String: Any]])
            #expect(users.count == 1 && users.first?["name"] as? String == "root" && users.first?["scans"] as? Int == 4)
            let hours = try #require(data["scans_per_hour"] as? [[String: Any]])
            #expect(hours.map { $0["hour"] as? String } == ["2026-05-12T10:00:00Z", "2026-05-12T11:00:00Z", "2026-05-12T13:00:00Z"])
            #expect(hours.map { $0["scans"] as? Int } == [1, 2, 1], "the voided scan is left out")

            // Someone limited to another country may not see it; an unknown audit is not found.
            let other = try await server.user("my@example.com", type: "STAFF", countries: ["MY"])
            #expect(try await server.call("GET", "/api/v1/audit/\(auditID)/summary", token: other).status == 403)
            #expect(try await server.call("GET", "/api/v1/audit/nope/summary", token: token).status == 404)
        }
    }

    @Test("GET /audit/history filters by country, location and day", arguments: Backend.allCases)
    func historyFilters(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let token = try await server.user("root@example.com")
            try await server.seed([("SG-1", "SG"), ("MY-1", "MY")])
            _ = try await server.parts.backend.assets.create(
                AssetInput(assetTag: "MY-2", name: "Laptop", status: "IN_STOCK", country: "MY", location: "Dock A"))
            #expect(try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token).status == 201)
            let narrowed = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"MY","locations":["Dock A"]}"#, token: token)
            #expect(narrowed.status == 201, "\(narrowed.text)")
            func countries(_ query: String) async throws -> [String] {
                let answer = try await server.call("GET", "/api/v1/audit/history?\(query)", token: token)
                #expect(answer.status == 200, "\(query): \(answer.text)")
                return ((answer.data?["audits"] as? [[String: Any]]) ?? []).compactMap { $0["country"] as? String }.sorted()
            }
            let today = String(ISOTime.string(Date()).prefix(10))
            let tomorrow = String(ISOTime.string(Date().addingTimeInterval(86_400)).prefix(10))
            let yesterday = String(ISOTime.string(Date().addingTimeInterval(-86_400)).prefix(10))
            #expect(try await countries("") == ["MY", "SG"])
            #expect(try await countries("country=my") == ["MY"])
            #expect(try await countries("location=Dock%20A") == ["MY", "SG"], "the whole of SG covers Dock A too")
            #expect(try await countries("location=Dock%20B") == ["SG"])
            #expect(try await countries("location=Dock%20B&country=MY").isEmpty)
            // Case does not matter ("dock a" finds "Dock A"), on both back ends.
            #expect(try await countries("location=dock%20a&country=MY") == ["MY"])
            #expect(try await countries("location=DOCK%20A") == ["MY", "SG"])
            #expect(try await countries("from=\(today)&to=\(today)") == ["MY", "SG"])
            #expect(try await countries("from=\(tomorrow)").isEmpty)
            #expect(try await countries("to=\(yesterday)").isEmpty)
            let bad = try await server.call("GET", "/api/v1/audit/history?from=2026-02-30&to=May", token: token)
            #expect(bad.status == 422 && (bad.body["errors"] as? [String: Any])?.keys.sorted() == ["from", "to"])
        }
    }
}
