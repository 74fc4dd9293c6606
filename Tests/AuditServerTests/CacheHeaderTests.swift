import AuditTestSupport
import Foundation
import Testing
import TestKit

/// No API answer is kept by a cache or a browser: `Cache-Control: no-store` on every one, its
/// refusals included, and `nosniff` on every answer.
@Suite("Cache and type headers of the API")
struct CacheHeaderTests {
    private func headers(_ port: Int, _ request: String) async throws -> [String: String] {
        let connection = try RawConnection(port: port)
        defer { connection.close() }
        connection.send(request)
        let answer = try await connection.answer()
        let head = answer.components(separatedBy: "\r\n\r\n").first ?? ""
        var fields: [String: String] = [:]
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    @Test func everyAPIAnswerSaysNoStore() async throws {
        try await TestServer.with { server in
            let token = try await server.user("lead@example.com")
            let ok = try await headers(
                server.port, "GET /api/v1/audit/status HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n")
            #expect(ok["cache-control"] == "no-store" && ok["x-content-type-options"] == "nosniff", "\(ok)")
            let refused = try await headers(server.port, "GET /api/v1/audit/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(refused["cache-control"] == "no-store" && refused["x-content-type-options"] == "nosniff", "\(refused)")
            let unknown = try await headers(
                server.port, "GET /api/v1/nothing-here HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n")
            #expect(unknown["cache-control"] == "no-store", "\(unknown)")
            let page = try await headers(server.port, "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(page["x-content-type-options"] == "nosniff")
        }
    }
}
