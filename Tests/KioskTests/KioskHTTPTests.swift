import BrowserTestSupport
import Foundation
@testable import Kiosk
import Testing
import TestKit

/// The kiosk's calls from anything that is not its page: bad JSON, wrong methods, missing
/// headers, foreign hosts, the PIN, and resends of one scan.
@Suite("The kiosk's calls refuse bad requests and change nothing")
struct KioskHTTPTests {
    @Test("Bad bodies, methods, headers and hosts get clear errors and store nothing")
    func badRequests() async throws {
        let kiosk = try await KioskProcess(inventory: [("T-1", "Laptop", "SG"), ("T-2", "Dock", "SG")])
        try await kiosk.run(["audit", "start", "--country", "SG"])
        try await kiosk.start(["--no-camera"])
        let cases: [(method: String, path: String, body: String?, headers: [String: String], status: Int, code: String)] = [
            ("POST", "/api/scan", "{not json", [:], 400, "BAD_REQUEST"),
            ("POST", "/api/scan", "[1,2]", [:], 400, "BAD_REQUEST"),
            ("POST", "/api/scan", #"{"identifier": 5}"#, [:], 422, "VALIDATION_ERROR"),
            ("POST", "/api/scan", #"{"scan_id": "x"}"#, [:], 422, "VALIDATION_ERROR"),
            ("POST", "/api/scan", #"{"identifier": "T\u0007-1", "scan_id": "bell"}"#, [:], 422, "VALIDATION_ERROR"),
            ("POST", "/api/scan", #"{"identifier": "\#(String(repeating: "é", count: 100))", "scan_id": "long"}"#, [:], 422, "VALIDATION_ERROR"),
            ("POST", "/api/scan", #"{"identifier": "T-1", "scan_id": "\#(String(repeating: "x", count: 300))"}"#, [:], 422, "VALIDATION_ERROR"),
            ("POST", "/api/scan", #"{"identifier": "\#(String(repeating: "x", count: 20_000))"}"#, [:], 413, "BODY_TOO_LARGE"),
            ("GET", "/api/scan", nil, [:], 405, "METHOD_NOT_ALLOWED"),
            ("DELETE", "/api/end", nil, [:], 405, "METHOD_NOT_ALLOWED"),
            ("POST", "/api/state", "{}", [:], 405, "METHOD_NOT_ALLOWED"),
            ("GET", "/api/nothing-here", nil, [:], 404, "NOT_FOUND"),
            ("GET", "/api/details/everything?audit_id=x", nil, [:], 404, "NOT_FOUND"),
            ("GET", "/api/details/missing", nil, [:], 422, "VALIDATION_ERROR"),
            ("GET", "/api/details/missing?audit_id=x&page=-3", nil, [:], 422, "VALIDATION_ERROR"),
            ("GET", "/api/details/missing?audit_id=x&per_page=99999999999999999999", nil, [:], 422, "VALIDATION_ERROR"),
            ("GET", "/api/report?audit_id=x&format=xlsx", nil, [:], 422, "VALIDATION_ERROR"),
            ("POST", "/api/start", #"{"country": "Atlantis"}"#, [:], 422, "VALIDATION_ERROR"),
            ("POST", "/api/start", #"{"country": "SG"}"#, [:], 409, "AUDIT_ALREADY_ACTIVE"),
            ("POST", "/api/join", #"{"audit_id": "no-such-audit"}"#, [:], 404, "NOT_FOUND"),
            ("POST", "/api/user", #"{"name": "   "}"#, [:], 422, "VALIDATION_ERROR"),
            ("POST", "/api/pin", #"{"pin": "1234"}"#, [:], 404, "NO_PIN"),
            // A page of another site can send neither the header nor a JSON body without asking.
            ("POST", "/api/end", "{}", ["X-Kiosk": ""], 403, "NOT_FROM_KIOSK_PAGE"),
            ("POST", "/api/end", "{}", ["Content-Type": "text/plain"], 415, "UNSUPPORTED_MEDIA_TYPE"),
            // DNS rebinding: a name that is not the kiosk's.
            ("GET", "/api/state", nil, ["Host": "attacker.example:8090"], 403, "FOREIGN_HOST")
        ]
        for item in cases {
            let answer = try await kiosk.call(item.method, item.path, json: item.body, headers: item.headers)
            #expect(answer.status == item.status, "\(item.method) \(item.path.prefix(60)): \(answer.text.prefix(200))")
            #expect(answer.body["error"] as? String == item.code, "\(item.method) \(item.path.prefix(60)): \(answer.text.prefix(200))")
            #expect((answer.body["message"] as? String)?.isEmpty == false)
        }
        let status = try jsonObject(try await kiosk.run(["audit", "status", "--json"]))
        let audit = try #require(status["audit"] as? [String: Any])
        #expect(audit["scanned_count"] as? Int == 0)
        #expect(audit["unexpected_count"] as? Int == 0)
        #expect(audit["is_active"] as? Bool == true)
    }

    @Test("The same scan_id sent many times at once counts once and answers the first outcome")
    func resendsCountOnce() async throws {
        let kiosk = try await KioskProcess(inventory: [("T-1", "Laptop", "SG"), ("T-2", "Dock", "SG")])
        try await kiosk.run(["audit", "start", "--country", "SG"])
        try await kiosk.start(["--no-camera"])
        let answers = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let answer = try await kiosk.call("POST", "/api/scan", json: #"{"identifier":"T-1","scan_id":"one-scan-id"}"#)
                    return (answer.status, answer.body["status"] as? String)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.allSatisfy { $0.0 == 200 && $0.1 == "found_expected" }, "\(answers)")
        let state = try await kiosk.call("GET", "/api/state")
        let audit = try #require(state.body["audit"] as? [String: Any])
        #expect(audit["scanned_count"] as? Int == 1)
        let report = try jsonObject(try await kiosk.run(["audit", "report", "--format", "json"]))
        let row = try #require((report["assets"] as? [[String: Any]])?.first { $0["asset_tag"] as? String == "T-1" })
        #expect(row["scan_count"] as? Int == 1)
    }

    @Test("Beyond loopback the kiosk will not start without a PIN")
    func noPinNoWideListening() async throws {
        let kiosk = try await KioskProcess(inventory: [])
        await #expect(throws: KioskTestError.self) { try await kiosk.start(["--no-camera", "--host", "0.0.0.0"]) }
        #expect(kiosk.logText.contains("PIN"))
        await #expect(throws: KioskTestError.self) { try await kiosk.start(["--no-camera", "--host", "0.0.0.0", "--pin", "12"]) }
        #expect(kiosk.logText.contains("4 to 64"))
    }

    @Test("The PIN rule: other machines need the PIN, wrong PINs are limited, loopback is trusted")
    func pinGate() throws {
        let gate = PinGate(pin: "4821-dock")
        #expect(gate.admits(peer: "127.0.0.1", cookieHeader: nil))
        #expect(gate.admits(peer: "::1", cookieHeader: nil))
        #expect(gate.admits(peer: "::ffff:127.0.0.1", cookieHeader: nil))
        #expect(!gate.admits(peer: "192.168.1.20", cookieHeader: nil))
        #expect(!gate.admits(peer: "192.168.1.20", cookieHeader: "kiosk_session=forged"))
        #expect(!gate.admits(peer: "127.0.0.1.evil", cookieHeader: nil))

        let token = try gate.check("4821-dock", peer: "192.168.1.20")
        #expect(gate.admits(peer: "192.168.1.20", cookieHeader: "theme=dark; kiosk_session=\(token)"))

        for _ in 0..<5 {
            #expect(throws: KioskError.self) { try gate.check("0000", peer: "192.168.1.30") }
        }
        // Locked out now, even with the right PIN; other addresses are not.
        do {
            _ = try gate.check("4821-dock", peer: "192.168.1.30")
            Issue.record("a locked-out address got in")
        } catch {
            #expect(error.status == .tooManyRequests)
            #expect(error.headers[.retryAfter] != nil)
        }
        #expect(throws: Never.self) { try gate.check("4821-dock", peer: "192.168.1.31") }
        #expect(PinGate(pin: nil).admits(peer: "10.0.0.9", cookieHeader: nil))
    }
}
