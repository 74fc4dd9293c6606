import AuditTestSupport
import Foundation
import InventoryCore
import Testing

@Suite("Devices: GET /api/v1/devices and register-push-token")
struct DeviceTests {
    private func login(_ server: TestServer, _ email: String, device: String) async throws -> String {
        let answer = try await server.call(
            "POST", "/api/v1/auth/login", json: #"{"email":"\#(email)","password":"secret-pass","device_name":"\#(device)"}"#)
        return try #require(answer.data?["token"] as? String, "\(answer.text)")
    }

    @Test("Logins record the device; its scans and last activity are counted; a user sees only their own", arguments: Backend.allCases)
    func devicesListLoginsAndScans(backend: Backend) async throws {
        try await TestServer.routes(backend) { server in
            let admin = try await server.user("root@example.com")
            _ = try await server.parts.users.create(email: "sam@example.com", password: "secret-pass", name: "Sam", type: .staff)
            let sam = try await login(server, "sam@example.com", device: "Dock scanner 1")
            try await server.seed([("A1", "SG"), ("A2", "SG")])
            let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: admin)
            let auditID = try #require((started.data?["audit"] as? [String: Any])?["id"] as? String, "\(started.text)")
            for tag in ["A1", "A2", "A1"] {
                _ = try await server.call("POST", "/api/v1/audit/scan", json: #"{"identifier":"\#(tag)","device_name":"Dock scanner 1"}"#, token: sam)
            }
            let own = try await server.call("GET", "/api/v1/devices", token: sam)
            let devices = try #require(own.data?["devices"] as? [[String: Any]])
            #expect(devices.count == 1)
            #expect(devices.first?["device_name"] as? String == "Dock scanner 1" && devices.first?["scans"] as? Int == 3)
            #expect(devices.first?["user"] as? String == "Sam" && devices.first?["last_active_at"] is String)
            // Last seen: the device's latest login, scan, or report on an audit (a station reports
            // itself with each batch and poll), sent as last_seen_at.
            let scanned = try #require((devices.first?["last_seen_at"] as? String).flatMap { ISOTime.parse($0) })
            #expect(devices.first?["last_seen_at"] as? String == devices.first?["last_active_at"] as? String)
            // The station reports itself on the audit (here two minutes on, as its next poll would).
            let later = Date().addingTimeInterval(120)
            try await server.parts.audits.heard(StationReport(auditID: auditID, station: "Dock scanner 1", user: "Sam", waiting: 5, at: later))
            let seen = try await server.call("GET", "/api/v1/devices", token: sam)
            let device = try #require((seen.data?["devices"] as? [[String: Any]])?.first)
            let lastSeen = try #require((device["last_seen_at"] as? String).flatMap(ISOTime.parse))
            #expect(lastSeen > scanned && abs(lastSeen.timeIntervalSince(later)) < 1, "the report is the latest activity")
            #expect(device["scans"] as? Int == 3)
            #expect(device["waiting"] as? Int == 5, "the scans the device last said were waiting")
            let all = try await server.call("GET", "/api/v1/devices", token: admin)
            #expect((all.data?["devices"] as? [[String: Any]])?.count == 2, "the admin's own test login is a device too")

            let push = #"{"token":"fcm-123","platform":"android","device_name":"Pixel 8 - Sam"}"#
            #expect(try await server.call("POST", "/api/v1/devices/register-push-token", json: push, token: sam).status == 200)
            let after = try await server.call("GET", "/api/v1/devices", token: sam)
            #expect((after.data?["devices"] as? [[String: Any]])?.contains { $0["platform"] as? String == "android" } == true)
            let bad = try await server.call(
                "POST", "/api/v1/devices/register-push-token", json: #"{"token":"","device_name":"x","platform":"toaster"}"#, token: sam)
            #expect(bad.status == 422 && (bad.body["errors"] as? [String: Any])?.keys.sorted() == ["platform", "token"])
        }
    }
}
