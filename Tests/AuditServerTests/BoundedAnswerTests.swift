import AuditTestSupport
@testable import AuditServer
import AuditAPI
import Foundation
import NIOCore
import Testing
import TestKit

/// Answers and imports in bounded memory: reports come from a spooled file, readers that stall
/// are dropped with their files, and JSON imports are limited in size and number.
@Suite("Reports and imports in bounded memory")
struct BoundedAnswerTests {
    /// The spooled reports of one audit. Tests running alongside spool reports of their own into
    /// the same folder, so a file counts only when it holds this audit's id.
    static func spooledFiles(of audit: String) -> Set<String> {
        let folder = FileManager.default.temporaryDirectory
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("audit-answer-") }
        return Set(
            names.filter { name in
                guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else { return false }
                return String(decoding: data, as: UTF8.self).contains(audit)
            })
    }

    @Test("Stalled report downloads are dropped after the write timeout, with their temporary files")
    func stalledReportReadersAreDropped() async throws {
        let limits = ConnectionLimits(maxConnections: 3, writeTimeout: .seconds(1))
        try await TestServer.with(settings: ServerSettings(host: "127.0.0.1", port: 0, limits: limits)) { server in
            let token = try await server.user("admin@example.com")
            try await server.seed((0..<400).map { ("R-\($0)", "SG") })
            let start = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
            let id = try #require((start.data?["audit"] as? [String: Any])?["id"] as? String)
            let whole = try await server.call("GET", "/api/v1/audit/\(id)/report?format=csv", token: token)
            #expect(whole.status == 200 && whole.text.contains("R-0,") && whole.text.contains("R-399,"), "every row, from the spooled file")
            let before = Self.spooledFiles(of: id)
            let request = "GET /api/v1/audit/\(id)/report?format=json HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n"
            let stalled = try (0..<2).map { _ in try RawConnection(port: server.port) }
            for connection in stalled { connection.send(String(repeating: request, count: 200)) }
            // Each stalled answer keeps its file for at least the write timeout.
            var seen = Set<String>()
            let spooling = ContinuousClock.now + .seconds(10)
            while seen.isEmpty && ContinuousClock.now < spooling {
                try await Task.sleep(for: .milliseconds(50))
                seen = Self.spooledFiles(of: id).subtracting(before)
            }
            #expect(!seen.isEmpty, "the stalled answers were spooled to files of this audit")
            #expect(try await TimingSensitive.SlowBodyTests.healthRecovers(server, within: 10), "the stalled readers were dropped")
            var left = Self.spooledFiles(of: id).subtracting(before)
            let deadline = ContinuousClock.now + .seconds(15)
            while !left.isEmpty && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                left = Self.spooledFiles(of: id).subtracting(before)
            }
            #expect(left.isEmpty, "every spooled report was removed: \(left)")
            withExtendedLifetime(stalled) {}
        }
    }

    @Test("A JSON import over 16 MiB is refused before it is decoded")
    func largeJSONImportsAreRefused() async throws {
        try await TestServer.routes { server in
            let token = try await server.user("admin@example.com")
            let row = #"{"line":2,"input":{"asset_tag":"J","name":"\#(String(repeating: "x", count: 1000))","country":"SG"}},"#
            let body = #"{"rows":["# + String(repeating: row, count: 17 * 1024) + #"{"line":3,"input":{"asset_tag":"K","name":"k","country":"SG"}}]}"#
            let answer = try await server.call("POST", "/api/v2/assets/import", json: body, token: token)
            #expect(answer.status == 400 && answer.error == "BODY_TOO_LARGE", "\(answer.text.prefix(200))")
        }
    }

    @Test("Only two JSON imports run at once; a third is answered 503 at once")
    func jsonImportsAreBounded() async throws {
        let slots = ImportSlots(limit: 2)
        let gates = (0..<2).map { _ in AsyncStream<Void>.makeStream() }
        let (claimed, claim) = AsyncStream<Void>.makeStream()
        let holders = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (gate, _) in gates {
                    group.addTask {
                        try await slots.run {
                            claim.yield()
                            for await _ in gate {}
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        var holding = 0
        for await _ in claimed {
            holding += 1
            if holding == 2 { break }
        }
        await #expect(throws: APIFailure.serverBusy(retryAfter: 5)) { try await slots.run {} }
        for (_, open) in gates { open.finish() }
        try await holders.value
        try await slots.run {}
    }
}
