import AuditTestSupport
@testable import AuditServer
import Foundation
import NIOCore
import Testing
import TestKit

extension TimingSensitive {
    /// Clients that hold a connection open by sending slowly or not reading: none of them needs
    /// credentials, and none may keep a slot beyond the limits.
    @Suite("Slow bodies, stalled readers and busy addresses")
    struct SlowBodyTests {
        /// Sends one byte of `connection`'s body every 200 ms until cancelled.
        static func trickle(_ connection: RawConnection) -> Task<Void, Never> {
            Task {
                for _ in 0..<100 {
                    guard (try? await Task.sleep(for: .milliseconds(200))) != nil else { return }
                    connection.send(" ")
                }
            }
        }

        /// Polls `/health` until it answers 200, for at most `seconds`.
        static func healthRecovers(_ server: TestServer, within seconds: Int) async throws -> Bool {
            try await healthAnswers(200, server, within: .seconds(seconds))
        }

        /// Polls `/health` until it answers `status`, for at most `limit`.
        static func healthAnswers(_ status: Int, _ server: TestServer, within limit: Duration) async throws -> Bool {
            let deadline = ContinuousClock.now + limit
            while ContinuousClock.now < deadline {
                // A connection of its own each time: a kept-alive one would hold a slot itself.
                let answer = try? await server.call("GET", "/health", headers: ["Connection": "close"])
                if answer?.status == status { return true }
                try await Task.sleep(for: .milliseconds(100))
            }
            return false
        }

        @Test("A body that trickles in slower than the minimum gets 408 and frees its slot")
        func tricklingBodiesTimeOut() async throws {
            let limits = ConnectionLimits(maxConnections: 2, bodyWindow: .seconds(1), minBodyBytes: 1024)
            try await TestServer.with(settings: ServerSettings(host: "127.0.0.1", port: 0, limits: limits)) { server in
                let slow = try (0..<2).map { _ in try RawConnection(port: server.port) }
                for connection in slow {
                    connection.send(
                        "POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{")
                }
                let trickles = slow.map(Self.trickle)
                defer { trickles.forEach { $0.cancel() } }
                // Both are taken in by the server (on either of its threads) before the check.
                try await Task.sleep(for: .milliseconds(300))
                let busy = try await server.call("GET", "/health")
                #expect(busy.status == 503, "the two slow clients hold both slots: \(busy.text)")
                for connection in slow {
                    let answer = try await connection.answer()
                    #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
                    #expect(RawConnection.jsonBody(of: answer)["error"] as? String == "REQUEST_TIMEOUT")
                }
                #expect(try await Self.healthRecovers(server, within: 5))
            }
        }

        @Test("A client that stops reading its answers is dropped after the write timeout")
        func stalledReadersAreDropped() async throws {
            // A write deadline of 8 s: long enough that a busy machine (a whole test run beside
            // it) sees both readers holding their slots (it polls for that), short enough for the test.
            let limits = ConnectionLimits(maxConnections: 2, writeTimeout: .seconds(8))
            try await TestServer.with(settings: ServerSettings(host: "127.0.0.1", port: 0, limits: limits)) { server in
                // Each asks for the API description (60 KB) 300 times over and reads none of it.
                let stalled = try (0..<2).map { _ in try RawConnection(port: server.port) }
                let requests = String(repeating: "GET /openapi.yaml HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", count: 300)
                for connection in stalled { connection.send(requests) }
                // Both are taken in and being answered before the first check, so the check's
                // own connection cannot take a slot first.
                for connection in stalled { #expect(try await connection.peek(12) == "HTTP/1.1 200") }
                #expect(try await Self.healthAnswers(503, server, within: .seconds(7)), "both slots are held")
                #expect(try await Self.healthRecovers(server, within: 20), "the stalled readers were dropped")
                withExtendedLifetime(stalled) {}
            }
        }

        @Test("Beyond the cap per address a client gets 503, while the server has room for others")
        func connectionsPerAddressAreCapped() async throws {
            let limits = ConnectionLimits(maxConnections: 100, maxPerAddress: 2, headerTimeout: .seconds(300))
            try await TestServer.with(settings: ServerSettings(host: "127.0.0.1", port: 0, limits: limits)) { server in
                let held = try (0..<2).map { _ in try RawConnection(port: server.port) }
                let answer = try await RawConnection.answerOnceItIs("HTTP/1.1 503", port: server.port, path: "/health", held: held)
                #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer)")
                #expect(RawConnection.jsonBody(of: answer)["error"] as? String == "SERVER_BUSY")
                for connection in held { connection.close() }
                #expect(try await Self.healthRecovers(server, within: 5))
            }
        }
    }
}
