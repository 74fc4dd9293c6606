import AuditAPI
import AuditClient
import AuditServer
import AuditTestSupport
import Foundation
import InventoryCore
import Testing

@Suite("Offline stations and failing networks", .serialized)
struct OfflineAndFaultTests {
    @Test func scansGoOnWhileTheServerIsDownAndArriveOnceWhenItIsBack() async throws {
        let server = try await TestServer.start()
        try await server.admin("night@example.com")
        try await server.seed((1...30).map { ("T\($0)", "SG") })
        let station = try await Station.make(server, email: "night@example.com", name: "kiosk-1")
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

        // The station restarts while offline: its engine comes back from the replica and the outbox.
        let restarted = try await Station.make(server, email: "night@example.com", name: "kiosk-1", path: station.path)
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

    @Test(arguments: [
        [Fault.error500, .error500],
        [Fault.reset],
        [Fault.dropAnswer, .dropAnswer],
        [Fault.delay(1.5)],
        [Fault.pass, .dropAnswer, .error500, .reset, .delay(1.5), .dropAnswer],
    ])
    func everyScanCountsOnceThroughFailuresAndLostAnswers(faults: [Fault]) async throws {
        try await TestServer.with { server in
            try await server.admin("faulty@example.com")
            try await server.seed((1...8).map { ("T\($0)", "SG") })
            let proxy = try FaultProxy(upstreamPort: server.port, plan: faults)
            defer { proxy.stop() }
            let direct = try await Station.make(server, email: "faulty@example.com", name: "kiosk-1")
            let audit = try await direct.audit.start(country: "SG", by: Actor(user: "faulty", station: "kiosk-1"))
            let station = try await Station.make(server, email: "faulty@example.com", name: "kiosk-1",
                                                 via: "http://127.0.0.1:\(proxy.port)", timeout: .milliseconds(700), path: direct.path)
            for index in 1...6 { _ = try await station.scan("T\(index)") }
            _ = try await station.scan("T1")
            _ = try await station.scan("UNKNOWN-1")
            let report = await station.audit.syncNow()
            #expect(report.remaining == 0 && report.rejected == 0)
            let onServer = try await server.parts.audits.audit(id: audit.id)
            #expect(onServer.scannedCount == 6 && onServer.unexpectedCount == 1)
            let stored = try await server.storedScans()
            #expect(stored.rows == 8 && stored.distinct == 8)
            #expect(proxy.applied.count >= faults.count)
        }
    }
}
