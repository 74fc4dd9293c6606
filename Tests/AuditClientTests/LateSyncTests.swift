import AuditAPI
import AuditClient
import ConnectedStation
import AuditServer
import AuditTestSupport
import Foundation
import InventoryCore
import Testing
import TestKit

/// A station that still holds scans when its audit ends: every scan it made before the end
/// counts when it syncs, nothing it scanned is marked missing, and whoever ends the audit is
/// told the station is out.
@Suite("Stations at an audit's end", .serialized)
struct LateSyncTests {
    @Test("A station that syncs after the end: its scans made before it count, none is marked missing", arguments: Backend.allCases)
    func scansMadeBeforeTheEndCount(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            try await server.admin("lead@example.com")
            try await server.seed((1...8).map { ("T\($0)", "SG") })
            let station = try await TestStation.make(server, email: "lead@example.com", name: "dock-b")
            let audit = try await station.audit.start(country: "SG", by: Actor(user: "lead", station: "dock-b"))
            _ = try await station.scan("T1")
            #expect(await station.audit.syncNow().pushed == 1)
            // Five scans wait in the outbox (the station could not send them), and the audit is
            // ended elsewhere, with force: the station said nothing of them.
            for index in 2...6 { #expect(try await station.scan("T\(index)").status == .foundExpected) }
            let actor = Actor(user: "supervisor", station: "office")
            _ = try await server.parts.audits.end(auditID: audit.id, by: actor)

            let report = await station.audit.syncNow()
            #expect(report.pushed == 5 && report.remaining == 0, "\(report)")
            let counts = try await station.audit.connectedStatus()
            #expect(counts.rejectedScans == 0 && counts.pendingScans == 0)
            let onServer = try await server.parts.audits.audit(id: audit.id)
            #expect(onServer.scannedCount == 6 && onServer.missingCount == 2 && onServer.lateScanCount == 5)
            let missing = try await server.parts.audits.details(auditID: audit.id, list: .missing, query: ListQuery(page: 1, perPage: 100))
            #expect(Set(missing.items.compactMap(\.assetTag)) == ["T7", "T8"])
            let reconciled = try await server.parts.audits.reconcile(
                ReconcileRequest(auditId: audit.id, actions: [.markMissing], preview: false, user: "lead"))
            #expect(reconciled.counts.markMissing == 2)
            // The station's own trail on the server, through `audit scans`: the five are late.
            let trail = try await station.audit.scans(auditID: audit.id, query: ListQuery(page: 1, perPage: 100))
            #expect(trail.items.count == 6 && trail.items.filter { $0.late == true }.count == 5)
        }
    }

    @Test("The end falls between a batch's send and its answer: the resent scans count once, not late")
    func endBetweenSendAndAnswer() async throws {
        try await TestServer.with { server in
            try await server.admin("lead@example.com")
            try await server.seed((1...4).map { ("T\($0)", "SG") })
            let direct = try await TestStation.make(server, email: "lead@example.com", name: "dock-b")
            let audit = try await direct.audit.start(country: "SG", by: Actor(user: "lead", station: "dock-b"))
            let proxy = try FaultProxy(upstreamPort: server.port, plan: [.dropAnswer], only: "/api/v1/audit/scans")
            defer { proxy.stop() }
            let station = try await TestStation.make(
                server, email: "lead@example.com", name: "dock-b", via: "http://127.0.0.1:\(proxy.port)", path: direct.path,
                policy: SyncPolicy(initialDelay: .milliseconds(10), maxDelay: .milliseconds(20), maxAttempts: 1))
            for index in 1...3 { _ = try await station.scan("T\(index)") }
            // The first push is stored and its answer lost; the audit ends before the resend.
            let first = await station.audit.syncNow()
            #expect(proxy.applied.first == .dropAnswer && first.remaining == 3, "\(first)")
            #expect(try await server.parts.audits.audit(id: audit.id).scannedCount == 3)
            _ = try await server.parts.audits.end(auditID: audit.id, by: Actor(user: "supervisor", station: "office"))
            let again = await station.audit.syncNow()
            #expect(again.remaining == 0 && again.pushed == 3, "\(again)")
            let counts = try await station.audit.connectedStatus()
            #expect(counts.rejectedScans == 0 && counts.pendingScans == 0)
            let onServer = try await server.parts.audits.audit(id: audit.id)
            #expect(onServer.scannedCount == 3 && (onServer.lateScanCount ?? 0) == 0)
            let stored = try await server.storedScans()
            #expect(stored.rows == 3 && stored.distinct == 3)
        }
    }

    @Test("A station with scans waiting is named when the audit is ended through the API, and --force ends it")
    func endingNamesTheStation() async throws {
        try await TestServer.with { server in
            try await server.admin("lead@example.com")
            try await server.seed((1...700).map { ("T\($0)", "SG") })
            let direct = try await TestStation.make(server, email: "lead@example.com", name: "dock-b")
            let audit = try await direct.audit.start(country: "SG", by: Actor(user: "lead", station: "dock-b"))
            // 700 scans: the first batch of 500 goes, then the server stops answering.
            let proxy = try FaultProxy(
                upstreamPort: server.port, plan: [.pass] + Array(repeating: .error500, count: 40), only: "/api/v1/audit/scans")
            defer { proxy.stop() }
            let station = try await TestStation.make(
                server, email: "lead@example.com", name: "dock-b", via: "http://127.0.0.1:\(proxy.port)", path: direct.path,
                policy: SyncPolicy(initialDelay: .milliseconds(10), maxDelay: .milliseconds(20), maxAttempts: 2))
            for index in 1...700 { _ = try await station.scan("T\(index)") }
            let report = await station.audit.syncNow()
            #expect(report.pushed == 500 && report.remaining == 200, "\(report)")
            let office = try await TestStation.make(server, email: "lead@example.com", name: "office")
            do {
                _ = try await office.audit.end(auditID: audit.id, by: Actor(user: "lead", station: "office"))
                Issue.record("the end should have been refused while dock-b holds 200 scans")
            } catch InventoryError.stationsOut(_, let stations) {
                #expect(stations.count == 1 && stations[0].hasPrefix("dock-b joined this audit and last synced"))
                #expect(stations[0].hasSuffix("with 200 scans waiting"), "\(stations)")
            }
            #expect(try await server.parts.audits.audit(id: audit.id).isActive)
            let summary = try await office.audit.end(auditID: audit.id, by: Actor(user: "lead", station: "office"), force: true)
            #expect(!summary.audit.isActive)
        }
    }
}
