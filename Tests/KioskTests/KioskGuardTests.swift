import BrowserTestSupport
import Foundation
import HTTPTypes
import Hummingbird
@testable import Kiosk
import Logging
import Testing
import TestKit

/// The kiosk holds its connections to the server's limits, asks other machines for the PIN
/// before anything else, and limits wrong PINs from all addresses together.
@Suite("The kiosk's guards")
struct KioskGuardTests {
    @Test("Beyond its connection cap the kiosk answers 503 SERVER_BUSY, and a freed slot is served again")
    func connectionsBeyondTheCapAreRefused() async throws {
        let kiosk = try await KioskProcess(inventory: [])
        // Held connections that say nothing are closed after the header timeout: a long one, so a
        // test task that a busy machine leaves unscheduled for a while still finds them held.
        try await kiosk.start(["--no-camera", "--max-connections", "3", "--header-timeout", "300"])
        let held = try (0..<3).map { _ in try RawConnection(port: kiosk.port) }
        let answer = try await RawConnection.answerOnceItIs("HTTP/1.1 503", port: kiosk.port, path: "/api/state", held: held)
        #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer)")
        #expect(RawConnection.jsonBody(of: answer)["error"] as? String == "SERVER_BUSY")
        for connection in held { connection.close() }
        let served = try await RawConnection.answerOnceItIs("HTTP/1.1 200", port: kiosk.port, path: "/api/state")
        #expect(served.hasPrefix("HTTP/1.1 200"), "\(served.prefix(200))")
    }

    @Test("Beyond its cap per address the kiosk answers 503")
    func connectionsPerAddressAreCapped() async throws {
        let kiosk = try await KioskProcess(inventory: [])
        try await kiosk.start(["--no-camera", "--max-connections-per-address", "2", "--header-timeout", "300"])
        let held = try (0..<2).map { _ in try RawConnection(port: kiosk.port) }
        let answer = try await RawConnection.answerOnceItIs("HTTP/1.1 503", port: kiosk.port, path: "/api/state", held: held)
        #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer)")
        withExtendedLifetime(held) {}
    }

    @Test("Headers that never finish get 408 and the connection closes")
    func slowHeadersTimeOut() async throws {
        let kiosk = try await KioskProcess(inventory: [])
        try await kiosk.start(["--no-camera"])
        let slow = try RawConnection(port: kiosk.port)
        slow.send("GET /api/state HTTP/1.1\r\nHo")
        let answer = try await slow.answer(within: .seconds(20))
        #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
        #expect(RawConnection.jsonBody(of: answer)["error"] as? String == "REQUEST_TIMEOUT")
    }

    @Test("Another machine without a session meets the PIN before any other answer", arguments: ["/api/nothing-here", "/api/scan", "/api/report"])
    func thePinComesFirst(path: String) throws {
        let check = KioskGuard(gate: PinGate(pin: "4821-dock"), allowedHosts: ["localhost"], logger: Logger(label: "test"))
        let request = Request(
            head: HTTPRequest(method: .delete, scheme: "http", authority: "attacker.example", path: path), body: RequestBody(buffer: ByteBuffer()))
        do {
            try check.check(request, peer: "192.168.1.20")
            Issue.record("\(path) passed without a PIN")
        } catch let error as KioskError {
            #expect(error.code == .pinRequired, "\(path): \(error.code)")
        }
        #expect(throws: Never.self) { try check.check(request.withPath("/api/state", method: .get, authority: "10.0.0.5"), peer: "192.168.1.20") }
    }

    @Test("Wrong PINs from many addresses together lock the PIN call for everyone for a while")
    func wrongPinsAreLimitedForAllAddresses() throws {
        let gate = PinGate(pin: "4821-dock")
        // Four wrong PINs from each of five addresses: none of them is locked on its own.
        for address in 0..<5 {
            for _ in 0..<4 { #expect(throws: KioskError.self) { try gate.check("0000", peer: "10.0.0.\(address)") } }
        }
        do {
            _ = try gate.check("4821-dock", peer: "10.0.9.9")
            Issue.record("a new address got in while the kiosk is locked for everyone")
        } catch {
            #expect(error.status == .tooManyRequests)
            #expect(error.headers[.retryAfter] == "60")
        }
        #expect(gate.admits(peer: "127.0.0.1", cookieHeader: nil), "the kiosk's own screen goes on")
    }
}

extension Request {
    fileprivate func withPath(_ path: String, method: HTTPRequest.Method, authority: String) -> Request {
        Request(head: HTTPRequest(method: method, scheme: "http", authority: authority, path: path), body: RequestBody(buffer: ByteBuffer()))
    }
}
