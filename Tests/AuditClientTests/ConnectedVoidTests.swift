import AuditAPI
import AuditClient
import ConnectedStation
import AuditTestSupport
import Foundation
import InventoryCore
import TestKit
import Testing

/// A connected station voids through the server: a scan still in its outbox is pushed first,
/// and the station's copy is corrected, so scanning the asset again is a first find.
@Suite("Connected stations: voids")
struct ConnectedVoidTests {
    @Test(arguments: Backend.allCases) func aStationVoidsAScanStillInItsOutbox(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            try await server.admin("kiosk@example.com")
            try await server.seed([("A1", "SG"), ("A2", "SG")])
            let station = try await TestStation.make(server, email: "kiosk@example.com", name: "kiosk-1")
            let audit = try await station.audit.start(country: "SG", by: Actor(user: "kiosk", station: "kiosk-1"))
            let scan = try await station.scan("A1")
            #expect(scan.status == .foundExpected)
            let ghost = try await station.scan("GHOST")
            #expect(ghost.status == .pending)
            // Neither is on the server yet: the void pushes them first.
            let void = try await station.audit.void(VoidRequest(scanId: scan.scanId, reason: "wrong shelf"))
            #expect(void.effect == .foundUndone && void.progress.scannedCount == 0 && void.void.station == "kiosk-1")
            #expect(try await server.parts.audits.audit(id: audit.id).scannedCount == 0)
            #expect(try await station.audit.audit(id: audit.id).scannedCount == 0)
            let again = try await station.scan("A1")
            #expect(again.status == .foundExpected)
            _ = await station.audit.syncNow()
            let unknown = try await server.parts.audits.scans(auditID: audit.id, query: ListQuery()).items.first { $0.identifier == "GHOST" }
            let ghostVoid = try await station.audit.void(VoidRequest(scanId: try #require(unknown?.scanId)))
            #expect(ghostVoid.effect == .unexpectedUndone && ghostVoid.progress.unexpectedCount == 0)
            #expect(try await station.scan("GHOST").status == .pending)
            let onServer = try await server.parts.audits.audit(id: audit.id)
            #expect(onServer.scannedCount == 1 && onServer.unexpectedCount == 0)
        }
    }

    /// A station and its twin on the same file that talks to a stopped server (nothing listens
    /// there: every call is refused at once).
    static func pair(_ server: TestServer) async throws -> (online: TestStation, offline: TestStation, audit: AuditSession) {
        try await server.admin("kiosk@example.com")
        try await server.seed([("A1", "SG"), ("A2", "SG"), ("A3", "SG")])
        let stopped = try Loopback.refusedURL()
        let online = try await TestStation.make(server, email: "kiosk@example.com", name: "kiosk-1")
        let audit = try await online.audit.start(country: "SG", by: Actor(user: "kiosk", station: "kiosk-1"))
        let offline = try await TestStation.make(
            server, email: "kiosk@example.com", name: "kiosk-1", via: stopped, timeout: .seconds(5), path: online.path)
        return (online, offline, audit)
    }

    @Test(arguments: Backend.allCases) func offlineVoidsCountAtOnceAndReachTheServerOnceEach(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            let (online, offline, audit) = try await Self.pair(server)
            let a1 = try await offline.scan("A1")
            let a2 = try await offline.scan("A2")
            let a2Again = try await offline.scan("A2")
            let ghost = try await offline.scan("GHOST")
            #expect(a1.status == .foundExpected && a2.status == .foundExpected && a2Again.status == .alreadyScanned)
            #expect(try await offline.audit.audit(id: audit.id).scannedCount == 2)

            let found = try await offline.audit.void(VoidRequest(scanId: a1.scanId, reason: "wrong shelf"))
            #expect(found.effect == .foundUndone && found.progress.scannedCount == 1, "\(found)")
            #expect(found.message.contains("when it can be reached") && found.void.reason == "wrong shelf")
            let repeated = try await offline.audit.void(VoidRequest(scanId: a2Again.scanId))
            #expect(repeated.effect == .repeatRemoved && repeated.progress.scannedCount == 1)
            // A second void of the same scan answers as the first did, and queues nothing.
            let twice = try await offline.audit.void(VoidRequest(scanId: a1.scanId, reason: "again"))
            #expect(twice.void.voidId == found.void.voidId && twice.void.reason == "wrong shelf")
            #expect(try await offline.audit.audit(id: audit.id).scannedCount == 1)
            // The copy lost the find: A1 scanned again is a first find, offline too.
            #expect(try await offline.scan("A1").status == .foundExpected)
            #expect(try await offline.audit.audit(id: audit.id).scannedCount == 2)
            _ = ghost

            // Back online: scans go first, then their voids, each once.
            let report = await online.audit.syncNow()
            #expect(report.remaining == 0 && report.voidsPushed == 2 && report.voidsRemaining == 0 && report.voidsRejected == 0, "\(report)")
            let onServer = try await server.parts.audits.audit(id: audit.id)
            #expect(onServer.scannedCount == 2 && onServer.unexpectedCount == 1, "\(onServer)")
            #expect(try await online.audit.audit(id: audit.id).scannedCount == 2)
            let trail = try await server.parts.audits.scans(auditID: audit.id, query: ListQuery()).items
            let voided = Set(trail.filter { $0.voided != nil }.map(\.scanId))
            #expect(voided == [a1.scanId, a2Again.scanId])
            #expect(trail.first { $0.scanId == a1.scanId }?.voided?.voidId == found.void.voidId)
            let again = await online.audit.syncNow()
            #expect(again.voidsPushed == 0 && again.voidsRemaining == 0)
        }
    }

    @Test func anOfflineVoidOfAFirstFindPassesItToTheStationsLaterScan() async throws {
        try await TestServer.with(.sqlite) { server in
            let (online, offline, audit) = try await Self.pair(server)
            let first = try await offline.scan("A1")
            let second = try await offline.scan("A1")
            let unknown = try await offline.scan("NOPE-1")
            let voided = try await offline.audit.void(VoidRequest(scanId: first.scanId))
            #expect(voided.effect == .firstPassedOn && voided.progress.scannedCount == 1)
            // The station never decided NOPE-1 (the server does): the void still queues, and the
            // server's answer decides its effect.
            let undecided = try await offline.audit.void(VoidRequest(scanId: unknown.scanId))
            #expect(undecided.effect == nil)
            #expect(try await offline.scan("A1").status == .alreadyScanned)
            let report = await online.audit.syncNow()
            #expect(report.voidsPushed == 2 && report.remaining == 0, "\(report)")
            let onServer = try await server.parts.audits.audit(id: audit.id)
            #expect(onServer.scannedCount == 1 && onServer.unexpectedCount == 0, "\(onServer)")
            let trail = try await server.parts.audits.scans(auditID: audit.id, query: ListQuery()).items
            #expect(trail.filter { $0.voided == nil }.map(\.scanId).contains(second.scanId))
            #expect(try await online.audit.audit(id: audit.id).unexpectedCount == 0)
        }
    }

    @Test func offlineAStationCanVoidOnlyItsOwnScansAndNothingIsRecordedOtherwise() async throws {
        try await TestServer.with(.sqlite) { server in
            let (online, offline, audit) = try await Self.pair(server)
            // Another station's scan, on the server only.
            let other = try await server.parts.audits.record(
                ScanRequest(identifier: "A3", auditId: audit.id, source: .manual, deviceName: "kiosk-2", user: "other"))
            await #expect {
                try await offline.audit.void(VoidRequest(scanId: other.scanId))
            } throws: { error in
                (error as? InventoryError)?.errorDescription?.contains("still counts") == true
            }
            let mine = try await offline.scan("A1")
            await #expect(throws: InventoryError.self) {
                try await offline.audit.void(VoidRequest(scanId: mine.scanId, auditId: "another-audit"))
            }
            await #expect(throws: InventoryError.self) {
                try await offline.audit.void(VoidRequest(scanId: mine.scanId, reason: String(repeating: "x", count: 5000)))
            }
            let counts = try await offline.audit.connectedStatus()
            #expect(counts.pendingVoids == 0 && counts.pendingScans == 1)
            _ = await online.audit.syncNow()
            #expect(try await server.parts.audits.audit(id: audit.id).scannedCount == 2)
        }
    }

    @Test func aVoidWhoseAnswerWasLostIsTheSameVoidWhenSentAgain() async throws {
        try await TestServer.with(.sqlite) { server in
            let (online, offline, audit) = try await Self.pair(server)
            let scan = try await offline.scan("A1")
            _ = try await offline.audit.void(VoidRequest(scanId: scan.scanId))
            _ = await online.audit.syncNow()
            #expect(try await server.parts.audits.audit(id: audit.id).scannedCount == 0)
            // The server stores the next void and its answer is lost (whatever other calls the
            // station makes around it): the resend is the same void.
            let again = try await online.scan("A1")
            _ = await online.audit.syncNow()
            let proxy = try FaultProxy(upstreamPort: server.port, plan: [.dropAnswer], only: "/void")
            defer { proxy.stop() }
            let flaky = try await TestStation.make(
                server, email: "kiosk@example.com", name: "kiosk-1", via: "http://127.0.0.1:\(proxy.port)", timeout: .seconds(5),
                path: online.path)
            let result = try await flaky.audit.void(VoidRequest(scanId: again.scanId))
            #expect(proxy.applied.contains(.dropAnswer))
            #expect(result.message.contains("when it can be reached"), "\(result.message)")
            let report = await flaky.audit.syncNow()
            #expect(report.voidsPushed == 1 && report.voidsRemaining == 0, "\(report)")
            #expect(try await server.parts.audits.audit(id: audit.id).scannedCount == 0)
            let trail = try await server.parts.audits.scans(auditID: audit.id, query: ListQuery()).items
            #expect(trail.count == 2 && trail.allSatisfy { $0.voided != nil })
            #expect(try await flaky.audit.audit(id: audit.id).scannedCount == 0)
        }
    }

    @Test func aCopyPulledAgainKeepsTheVoidsTheServerHasNotHadYet() async throws {
        try await TestServer.with(.sqlite) { server in
            let (online, offline, audit) = try await Self.pair(server)
            let scan = try await online.scan("A1")
            _ = try await online.scan("A2")
            _ = await online.audit.syncNow()
            let voided = try await offline.audit.void(VoidRequest(scanId: scan.scanId))
            #expect(voided.effect == .foundUndone && voided.progress.scannedCount == 1)
            // The copy is pulled again from the server, which still counts the scan.
            try await online.audit.join(auditID: audit.id)
            #expect(try await offline.audit.audit(id: audit.id).scannedCount == 1)
            #expect(try await offline.scan("A1").status == .foundExpected)
            let report = await online.audit.syncNow()
            #expect(report.voidsPushed == 1 && report.remaining == 0, "\(report)")
            #expect(try await server.parts.audits.audit(id: audit.id).scannedCount == 2)
            #expect(try await offline.audit.audit(id: audit.id).scannedCount == 2)
        }
    }
}
