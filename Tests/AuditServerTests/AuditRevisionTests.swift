import AuditTestSupport
import Foundation
import InventoryCore
import Testing

/// Every change to an audit's numbers raises its revision in the same transaction (a scan that
/// counts, a void, a late scan, the end), and every answer that carries the numbers carries it:
/// of two readings, the one with the higher revision is the newer. Over real sockets, on both
/// back ends.
@Suite("The revision that orders an audit's numbers")
struct AuditRevisionTests {
    private func revision(_ numbers: [String: Any]?) -> Int? { numbers?["revision"] as? Int }

    private func scan(_ server: TestServer, _ tag: String, audit: String, id: String, token: String) async throws -> [String: Any] {
        let answer = try await server.call(
            "POST", "/api/v1/audit/scan", json: #"{"identifier":"\#(tag)","audit_id":"\#(audit)","scan_id":"\#(id)"}"#, token: token)
        #expect(answer.status == 200, "\(answer.text)")
        return try #require(answer.data?["progress"] as? [String: Any])
    }

    private func audit(_ server: TestServer, _ id: String, token: String) async throws -> [String: Any] {
        try #require((try await server.call("GET", "/api/v1/audit/\(id)", token: token)).data?["audit"] as? [String: Any])
    }

    @Test("Each change raises it once; a repeat, a replay and a reading raise nothing", arguments: Backend.allCases)
    func risesWithEveryChange(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            let token = try await server.user("lead@example.com")
            try await server.seed([("A1", "SG"), ("A2", "SG"), ("A3", "SG")])
            let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
            let startedAudit = try #require(started.data?["audit"] as? [String: Any])
            let id = try #require(startedAudit["id"] as? String)
            let r0 = try #require(revision(startedAudit))

            let found = try await scan(server, "A1", audit: id, id: "s-1", token: token)
            let r1 = try #require(revision(found))
            #expect(r1 > r0)
            #expect(revision(try await audit(server, id, token: token)) == r1)

            // Nothing changed: the same revision.
            #expect(revision(try await scan(server, "A1", audit: id, id: "s-2", token: token)) == r1)
            #expect(revision(try await scan(server, "A1", audit: id, id: "s-1", token: token)) == r1)

            let unknown = try await scan(server, "GHOST", audit: id, id: "s-3", token: token)
            let r2 = try #require(revision(unknown))
            #expect(r2 > r1 && unknown["unexpected_count"] as? Int == 1)

            // A void lowers a count and raises the revision: the lower number is the newer one.
            let voided = try await server.call("POST", "/api/v1/audit/scans/s-3/void", json: #"{"audit_id":"\#(id)"}"#, token: token)
            #expect(voided.status == 200, "\(voided.text)")
            let afterVoid = try #require(voided.data?["progress"] as? [String: Any])
            let r3 = try #require(revision(afterVoid))
            #expect(r3 > r2 && afterVoid["unexpected_count"] as? Int == 0)

            let ended = try await server.call("POST", "/api/v1/audit/end", json: #"{"audit_id":"\#(id)"}"#, token: token)
            #expect(ended.status == 200, "\(ended.text)")
            let endedAudit = try #require((ended.data?["summary"] as? [String: Any])?["audit"] as? [String: Any])
            let r4 = try #require(revision(endedAudit))
            #expect(r4 > r3)

            // A late scan (made before the end) still counts, and moves the revision on.
            let before = ISOTime.string(Date().addingTimeInterval(-60))
            let late = try await server.call(
                "POST", "/api/v1/audit/scans",
                json: #"{"scans":[{"identifier":"A2","scan_id":"late-1","audit_id":"\#(id)","scanned_at":"\#(before)"}]}"#, token: token)
            #expect(late.status == 200, "\(late.text)")
            let lateAudit = try await audit(server, id, token: token)
            #expect(try #require(revision(lateAudit)) > r4)
            #expect(lateAudit["scanned_count"] as? Int == 2)
        }
    }

    @Test("Answers to scans made at once each get their own revision, in the order of their numbers", arguments: Backend.allCases)
    func concurrentScansAreOrdered(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            let token = try await server.user("lead@example.com")
            let tags = (1...16).map { "T\($0)" }
            try await server.seed(tags.map { ($0, "SG") })
            let started = try await server.call("POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
            let id = try #require((started.data?["audit"] as? [String: Any])?["id"] as? String)
            let readings = try await withThrowingTaskGroup(of: (Int, Int)?.self) { group in
                for (index, tag) in tags.enumerated() {
                    group.addTask {
                        let numbers = try await scan(server, tag, audit: id, id: "c-\(index)", token: token)
                        return revision(numbers).map { ($0, numbers["scanned_count"] as? Int ?? -1) }
                    }
                }
                var all: [(Int, Int)] = []
                for try await reading in group { if let reading { all.append(reading) } }
                return all
            }
            #expect(readings.count == tags.count)
            #expect(Set(readings.map(\.0)).count == tags.count, "each change its own revision")
            // Ordered by revision, the numbers only grow: the higher revision is the newer reading.
            let counts = readings.sorted { $0.0 < $1.0 }.map(\.1)
            #expect(counts == Array(1...tags.count))
            let final = try await audit(server, id, token: token)
            #expect(revision(final) == readings.map(\.0).max())
        }
    }
}
