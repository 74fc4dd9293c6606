import AuditTestSupport
@testable import AuditServer
import Foundation
import NIOCore
import Testing
import TestKit

@Suite("Slow, idle and malformed connections")
struct SlowClientTests {
    @Test("Beyond the connection cap a client gets 503 with Retry-After, and a freed slot is served again")
    func connectionsBeyondTheCapAreRefused() async throws {
        // A long header timeout: held connections stay held however long a busy machine leaves
        // this test unscheduled.
        let settings = ServerSettings(host: "127.0.0.1", port: 0, limits: ConnectionLimits(maxConnections: 3, headerTimeout: .seconds(300)))
        try await TestServer.with(settings: settings) { server in
            let held = try (0..<3).map { _ in try RawConnection(port: server.port) }
            let answer = try await RawConnection.answerOnceItIs("HTTP/1.1 503", port: server.port, path: "/health", held: held)
            #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer)")
            #expect(answer.lowercased().contains("retry-after: 2"))
            #expect(RawConnection.jsonBody(of: answer)["error"] as? String == "SERVER_BUSY")
            held[0].close()
            let served = try await RawConnection.answerOnceItIs("HTTP/1.1 200", port: server.port, path: "/health")
            #expect(served.hasPrefix("HTTP/1.1 200"), "\(served.prefix(200))")
            withExtendedLifetime(held) {}
        }
    }

    @Test("Headers that do not arrive in time get 408 and the connection closes, while others are served")
    func slowHeadersTimeOut() async throws {
        let settings = ServerSettings(host: "127.0.0.1", port: 0, limits: ConnectionLimits(headerTimeout: .milliseconds(500)))
        try await TestServer.with(settings: settings) { server in
            let slow = try RawConnection(port: server.port)
            slow.send("GET /health HTTP/1.1\r\nHo")
            #expect(try await server.call("GET", "/health").status == 200, "a stalled client does not hold the server")
            let answer = try await slow.answer()
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
            #expect(RawConnection.jsonBody(of: answer)["error"] as? String == "REQUEST_TIMEOUT")
        }
    }

    @Test("A kept-alive connection with no new request is closed without an unasked-for answer")
    func keptAliveConnectionsCloseQuietly() async throws {
        let settings = ServerSettings(host: "127.0.0.1", port: 0, limits: ConnectionLimits(headerTimeout: .milliseconds(400)))
        try await TestServer.with(settings: settings) { server in
            let connection = try RawConnection(port: server.port)
            connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let answer = try await connection.answer()
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
            #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "one answer, then a quiet close: \(answer)")
        }
    }

    @Test(
        "A request the HTTP parser rejects gets a 400 in the JSON envelope",
        arguments: [
            "GARBAGE\r\n\r\n",
            "GET /health HTTP/1.1\r\nBad Header Line\r\n\r\n",
            "GET /health HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
            "POST /api/v1/auth/login HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n"
        ])
    func malformedHTTPGetsTheEnvelope(request: String) async throws {
        try await TestServer.with { server in
            let connection = try RawConnection(port: server.port)
            connection.send(request)
            let answer = try await connection.answer()
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer)")
            let body = RawConnection.jsonBody(of: answer)
            #expect(body["success"] as? Bool == false && body["error"] as? String == "BAD_REQUEST", "\(answer)")
        }
    }
}
