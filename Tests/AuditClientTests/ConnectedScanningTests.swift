import AuditAPI
import AuditClient
import AuditTestSupport
import Foundation
import InventoryCore
import TestKit
import Testing

@Suite("Connected stations: local feedback, outbox, sync", .serialized)
struct ConnectedScanningTests {
    @Test(arguments: Backend.allCases) func aStationDecidesAtOnceAndTheServerAgreesAfterSync(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            try await server.admin("kiosk@example.com")
            try await server.seed([("A1", "SG"), ("A2", "SG"), ("A3", "SG"), ("M1", "MY")])
            let station = try await TestStation.make(server, email: "kiosk@example.com", name: "kiosk-1")
            let audit = try await station.audit.start(country: "SG", by: Actor(user: "kiosk", station: "kiosk-1"))
            #expect(try await station.scan("A1").status == .foundExpected)
            let repeatScan = try await station.scan("SN-A1")
            #expect(repeatScan.status == .alreadyScanned && repeatScan.firstScan?.station == "kiosk-1")
            // Outside the station's copy: pending, and not counted until the server decides.
            #expect(try await station.scan("M1").status == .pending)
            let unknown = try await station.scan("NOPE")
            #expect(unknown.status == .pending && unknown.progress.unexpectedCount == 0 && unknown.progress.scannedCount == 1)
            // Asked while its scans wait in the outbox, the station answers what its screen
            // showed (the server has none of them yet), online as offline.
            #expect(try await server.parts.audits.audit(id: audit.id).scannedCount == 0)
            #expect(try await station.audit.audit(id: audit.id).scannedCount == 1)
            #expect(try await station.audit.activeAudits().first { $0.id == audit.id }?.scannedCount == 1)
            let report = await station.audit.syncNow()
            #expect(report.pushed == 4 && report.remaining == 0)
            let other = try await station.scan("M1")
            #expect(other.status == .unexpected && other.reason == .otherCountry && other.firstScan != nil)
            #expect(try await station.scan("NOPE").status == .unknown)
            #expect(await station.audit.syncNow().pushed == 2)
            let onServer = try await server.parts.audits.audit(id: audit.id)
            #expect(onServer.scannedCount == 1 && onServer.unexpectedCount == 2)
            #expect(try await server.storedScans().rows == 6)
            let status = try await station.audit.connectedStatus()
            #expect(status.pendingScans == 0 && status.syncedScans == 6 && status.lastSyncAt != nil)
            let summary = try await station.audit.end(auditID: audit.id, by: Actor(user: "kiosk", station: "kiosk-1"))
            #expect(summary.audit.isActive == false && summary.missing.count == 2)
            await #expect(throws: InventoryError.auditEnded(audit.id)) {
                try await station.audit.record(ScanRequest(identifier: "A2", auditId: audit.id))
            }
        }
    }

    @Test("Asked while a push is on its way, the station counts the scan once: not in the server's numbers and again as pending")
    func aScanOnItsWayIsCountedOnce() async throws {
        try await TestServer.with(.sqlite) { server in
            try await server.admin("slow@example.com")
            try await server.seed([("A1", "SG"), ("A2", "SG")])
            let direct = try await TestStation.make(server, email: "slow@example.com", name: "kiosk-1")
            let audit = try await direct.audit.start(country: "SG", by: Actor(user: "slow", station: "kiosk-1"))
            // The server stores the push at once; its answer is held on the way back.
            let proxy = try FaultProxy(upstreamPort: server.port, plan: [.delay(2)], only: "POST /api/v1/audit/scan")
            defer { proxy.stop() }
            let station = try await TestStation.make(
                server, email: "slow@example.com", name: "kiosk-1", via: "http://127.0.0.1:\(proxy.port)", path: direct.path)
            #expect(try await station.scan("A1").progress.scannedCount == 1)
            async let pushed = station.audit.syncNow()
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(10)
            while try await server.parts.audits.audit(id: audit.id).scannedCount == 0, clock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(try await server.parts.audits.audit(id: audit.id).scannedCount == 1, "the server stored the scan")
            #expect(try await station.audit.connectedStatus().pendingScans == 1, "its answer is not in yet")
            #expect(try await station.audit.audit(id: audit.id).scannedCount == 1, "counted once, not twice")
            #expect(try await station.audit.activeAudits().first { $0.id == audit.id }?.scannedCount == 1)
            #expect(await pushed.pushed == 1)
            #expect(try await station.audit.audit(id: audit.id).scannedCount == 1)
            #expect(proxy.applied == [.delay(2)])
        }
    }

    @Test(arguments: Backend.allCases) func twoStationsScanningTheSameAuditAtOnceGiveExactCounts(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            try await server.admin("one@example.com")
            try await server.admin("two@example.com")
            try await server.seed((1...60).map { ("T\($0)", "SG") })
            let first = try await TestStation.make(server, email: "one@example.com", name: "kiosk-1", autoSync: true)
            let second = try await TestStation.make(server, email: "two@example.com", name: "kiosk-2", autoSync: true)
            let audit = try await first.audit.start(country: "SG", by: Actor(user: "one", station: "kiosk-1"))
            async let a: Void = Self.scanAll(first, (1...40).map { "T\($0)" } + (1...5).map { "U\($0)" })
            async let b: Void = Self.scanAll(second, (21...60).map { "T\($0)" } + (3...8).map { "U\($0)" })
            _ = try await (a, b)
            _ = await (first.audit.syncNow(), second.audit.syncNow())
            let onServer = try await server.parts.audits.audit(id: audit.id)
            #expect(onServer.scannedCount == 60 && onServer.missingCount == 0)
            #expect(onServer.unexpectedCount == 8)
            #expect(try await server.storedScans().rows == 45 + 46)
            // Each station's view is corrected by the server's answers.
            let seen = try await second.audit.activeAudits().first { $0.id == audit.id }
            #expect(seen?.scannedCount == 60)
        }
    }

    /// The camera and the keyboard record at the same moment: no scan may be missing from the
    /// station's local copy afterwards.
    @Test(arguments: Backend.allCases) func scansRecordedAtTheSameMomentAreAllKept(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            try await server.admin("both@example.com")
            try await server.seed((1...20).map { ("C\($0)", "SG") })
            let station = try await TestStation.make(server, email: "both@example.com", name: "kiosk-1")
            let audit = try await station.audit.start(country: "SG", by: Actor(user: "both", station: "kiosk-1"))
            try await withThrowingTaskGroup(of: ScanStatus.self) { group in
                for index in 1...20 { group.addTask { try await station.scan("C\(index)").status } }
                for try await status in group { #expect(status == .foundExpected) }
            }
            for index in 1...20 { #expect(try await station.scan("C\(index)").status == .alreadyScanned) }
            #expect(try await station.audit.heldAudits().first { $0.id == audit.id }?.scannedCount == 20)
        }
    }

    static func scanAll(_ station: TestStation, _ identifiers: [String]) async throws {
        for identifier in identifiers { _ = try await station.scan(identifier) }
    }

    @Test(arguments: Backend.allCases) func anExpiredOrRevokedLoginStopsSyncAndSaysToLogInAgain(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            try await server.admin("gone@example.com")
            try await server.seed([("A1", "SG")])
            let station = try await TestStation.make(server, email: "gone@example.com", name: "kiosk-9")
            _ = try await station.audit.start(country: "SG", by: Actor(user: "gone", station: "kiosk-9"))
            #expect(try await server.call("POST", "/api/v1/auth/logout", token: station.login.token).status == 200)
            #expect(try await station.scan("A1").status == .foundExpected)
            let report = await station.audit.syncNow()
            #expect(report.needsLogin)
            #expect(report.stoppedBy?.contains("log in again with `audit-station login --server") == true)
            #expect(try await station.audit.connectedStatus().pendingScans == 1)
            await #expect(throws: InventoryError.self) { try await station.audit.countries() }
        }
    }
}
