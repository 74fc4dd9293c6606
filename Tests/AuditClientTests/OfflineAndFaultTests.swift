import AuditAPI
import AuditClient
import ConnectedStation
import AuditServer
import AuditTestSupport
import Foundation
import InventoryCore
import Testing
import TestKit

@Suite("Offline stations and failing networks", .serialized)
struct OfflineAndFaultTests {
    @Test func scansGoOnWhileTheServerIsDownAndArriveOnceWhenItIsBack() async throws {
        let server = try await TestServer.start()
        try await server.admin("night@example.com")
        try await server.seed((1...30).map { ("T\($0)", "SG") })
        let station = try await TestStation.make(server, email: "night@example.com", name: "kiosk-1")
        let audit = try await station.audit.start(country: "SG", by: Actor(user: "night", station: "kiosk-1"))
        for index in 1...10 { _ = try await station.scan("T\(index)") }
        #expect(await station.audit.syncNow().pushed == 10)

        await server.stop()
        for index in 11...20 { #expect(try await station.scan("T\(index)").status == .foundExpected) }
        #expect(try await station.scan("T5").status == .alreadyScanned)
        let offline = try await station.audit.activeAudits()
        #expect(offline.first?.scannedCount == 20)
        let failed = await station.audit.syncNow()
        #expect(failed.pushed == 0 && failed.remaining == 11 && failed.stoppedBy?.contains("Cannot reach the server") == true)

        // The station restarts while offline: its engine comes back from the copy and the outbox.
        let restarted = try await TestStation.make(server, email: "night@example.com", name: "kiosk-1", path: station.path)
        #expect(try await restarted.scan("T15").status == .alreadyScanned)
        #expect(try await restarted.scan("T21").status == .foundExpected)

        try await TestServer.with(parts: server.parts, settings: server.settings) { back in
            let report = await restarted.audit.syncNow()
            #expect(report.remaining == 0 && report.pushed == 13)
            let onServer = try await back.parts.audits.audit(id: audit.id)
            #expect(onServer.scannedCount == 21)
            let stored = try await back.storedScans()
            #expect(stored.rows == 23 && stored.distinct == 23)
        }
    }

    /// On one backend: the cost here is the station's 1,200 scans, the same for either, and the
    /// batch route is checked on both backends by the server's own tests ("Batch scans").
    @Test("Queued scans go in batches: 1,200 scans in a few calls, each counted once")
    func queuedScansGoInBatches() async throws {
        try await TestServer.with { server in
            try await server.admin("batch@example.com")
            try await server.seed((1...1_200).map { ("B\($0)", "SG") })
            let proxy = try FaultProxy(upstreamPort: server.port, plan: [])
            defer { proxy.stop() }
            let direct = try await TestStation.make(server, email: "batch@example.com", name: "kiosk-1")
            let audit = try await direct.audit.start(country: "SG", by: Actor(user: "batch", station: "kiosk-1"))
            let station = try await TestStation.make(
                server, email: "batch@example.com", name: "kiosk-1",
                via: "http://127.0.0.1:\(proxy.port)", path: direct.path, autoSync: false)
            for index in 1...1_200 { _ = try await station.scan("B\(index)") }
            let before = proxy.applied.count
            let report = await station.audit.syncNow()
            #expect(report.pushed == 1_200 && report.remaining == 0, "\(report)")
            #expect(proxy.applied.count - before <= 6, "3 batches of at most 500, not 1,200 calls: \(proxy.applied.count - before)")
            let onServer = try await server.parts.audits.audit(id: audit.id)
            #expect(onServer.scannedCount == 1_200)
            let stored = try await server.storedScans()
            #expect(stored.rows == 1_200 && stored.distinct == 1_200)
        }
    }

    @Test(arguments: [
        [Fault.error500, .error500],
        [Fault.reset],
        [Fault.dropAnswer, .dropAnswer],
        [Fault.delay(2.5)],
        [Fault.pass, .dropAnswer, .error500, .reset, .delay(2.5), .dropAnswer]
    ])
    func everyScanCountsOnceThroughFailuresAndLostAnswers(faults: [Fault]) async throws {
        try await TestServer.with { server in
            try await server.admin("faulty@example.com")
            try await server.seed((1...8).map { ("T\($0)", "SG") })
            let proxy = try FaultProxy(upstreamPort: server.port, plan: faults)
            defer { proxy.stop() }
            let direct = try await TestStation.make(server, email: "faulty@example.com", name: "kiosk-1")
            let audit = try await direct.audit.start(country: "SG", by: Actor(user: "faulty", station: "kiosk-1"))
            let station = try await TestStation.make(
                server, email: "faulty@example.com", name: "kiosk-1",
                via: "http://127.0.0.1:\(proxy.port)", timeout: .seconds(2), path: direct.path)
            // Pushed two at a time, so the faults fall on several batch calls, not one.
            let identifiers = (1...6).map { "T\($0)" } + ["T1", "UNKNOWN-1"]
            var report = SyncReport()
            for pair in stride(from: 0, to: identifiers.count, by: 2) {
                for identifier in identifiers[pair..<pair + 2] { _ = try await station.scan(identifier) }
                report = await station.audit.syncNow()
                #expect(report.remaining == 0 && report.rejected == 0, "\(report)")
            }
            let onServer = try await server.parts.audits.audit(id: audit.id)
            #expect(onServer.scannedCount == 6 && onServer.unexpectedCount == 1)
            let stored = try await server.storedScans()
            #expect(stored.rows == 8 && stored.distinct == 8)
            #expect(proxy.applied.count >= faults.count)
        }
    }
}
