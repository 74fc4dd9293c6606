import AuditAPI
import AuditClient
import ConnectedStation
import AuditTestSupport
import Foundation
import InventoryCore
import TestKit
import Testing

/// A connected station against a server that implements SPEC's audit calls and seed 000's login
/// and nothing of ours: it logs in, builds its local copy from the lists, scans, syncs and ends
/// the audit, and every scan arrives once with exact counts.
@Suite("Connected stations against a SPEC-only server", .serialized)
struct AnyServerTests {
    static let actor = Actor(user: "jane", station: "kiosk-1")

    static func seeded(_ audits: SpecAudits) async {
        for index in 1...5 { await audits.add(tag: "A\(index)", country: "SG") }
        await audits.add(tag: "M1", country: "MY")
        await audits.add(tag: "R1", country: "SG", status: "ARCHIVED")
    }

    @Test func aBareLoginWithoutExpiryOrCountriesIsRead() async throws {
        try await SpecServer.with { server in
            let station = try await TestStation.make(server: server.baseURL, email: "jane@example.com", name: "kiosk-1")
            #expect(station.login.expiresAt == nil)
            #expect(station.login.user.name == "Jane Technician" && station.login.user.userType == .staff)
            #expect(station.login.user.countries.isEmpty && station.login.token.hasPrefix("1|"))
            await #expect(throws: InventoryError.self) {
                _ = try await ConnectedStation.logIn(
                    server: server.baseURL, email: "jane@example.com", password: "wrong", deviceName: "k",
                    apiKey: nil, databasePath: TestServer.temporaryPath(), http: TestServer.http)
            }
        }
    }

    @Test func aWholeAuditRunsOnlineWithTheListsAsTheLocalCopy() async throws {
        try await SpecServer.with { server in
            await Self.seeded(server.audits)
            let station = try await TestStation.make(server: server.baseURL, email: "jane@example.com", name: "kiosk-1")
            let countries = try await station.audit.countries()
            #expect(countries == [CountryCount(country: "MY", expectedAssets: 1), CountryCount(country: "SG", expectedAssets: 5)])
            let audit = try await station.audit.start(country: "SG", by: Self.actor)
            #expect(audit.totalAssets == 5 && audit.startedBy == "7")
            #expect(try await station.scan("A1").status == .foundExpected)
            let repeated = try await station.scan("SN-A1")
            #expect(repeated.status == .alreadyScanned && repeated.firstScan?.station == "kiosk-1")
            // Outside the local copy (the expected set): the server decides them.
            #expect(try await station.scan("M1").status == .pending)
            #expect(try await station.scan("NOPE").status == .pending)
            let report = await station.audit.syncNow()
            #expect(report.pushed == 4 && report.rejected == 0 && report.remaining == 0)
            #expect(await server.audits.stored.count == 4)
            let running = try await station.audit.activeAudits()
            #expect(running.map(\.id) == [audit.id] && running.first?.scannedCount == 1 && running.first?.unexpectedCount == 2)
            #expect(try await station.audit.audit(id: audit.id).scannedCount == 1)
            let missing = try await station.audit.details(auditID: audit.id, list: .missing, query: ListQuery())
            #expect(missing.pagination.total == 4 && missing.items.first?.assetTag == "A2" && missing.items.first?.outcome == .missing)
            await #expect(throws: InventoryError.auditAlreadyActive(country: "?", auditID: "?")) {
                try await station.audit.start(country: "SG", by: Self.actor)
            }
            let summary = try await station.audit.end(auditID: audit.id, by: Self.actor)
            #expect(!summary.audit.isActive && summary.audit.scannedCount == 1 && summary.audit.missingCount == 4)
            await #expect(throws: InventoryError.auditEnded(audit.id)) {
                try await station.audit.record(ScanRequest(identifier: "A2", auditId: audit.id))
            }
            let history = try await station.audit.history(country: "SG", query: ListQuery())
            #expect(history.items.map(\.id) == [audit.id] && history.items.first?.isActive == false)
            let calls = await server.audits.calls
            #expect(calls.contains("GET /api/v1/audit/details/{list}"))
        }
    }

    /// Where a scan was made (`location`) is ours, not SPEC's: this server refuses a field it does
    /// not know. The scan goes again without it and counts; the next ones go without it at once.
    @Test func scansMadeAtALocationCountOnAServerThatRefusesTheField() async throws {
        try await SpecServer.with { server in
            await Self.seeded(server.audits)
            let station = try await TestStation.make(server: server.baseURL, email: "jane@example.com", name: "kiosk-1")
            let audit = try await station.audit.start(country: "SG", by: Self.actor)
            for tag in ["A1", "NOPE", "A2"] {
                _ = try await station.audit.record(ScanRequest(identifier: tag, source: .manual, location: "Dock B"))
            }
            let report = await station.audit.syncNow()
            #expect(report.pushed == 3 && report.rejected == 0 && report.remaining == 0, "\(report)")
            #expect(await server.audits.stored.count == 3)
            let running = try #require(try await station.audit.activeAudits().first { $0.id == audit.id })
            #expect(running.scannedCount == 2 && running.unexpectedCount == 1)
            // One refusal taught the station: four calls for three scans.
            #expect(await server.audits.calls.filter { $0 == "POST /api/v1/audit/scan" }.count == 4)
            #expect(try await station.audit.connectedStatus().rejectedScans == 0)
        }
    }

    @Test func aSecondStationJoinsWithTheScansAlreadyMade() async throws {
        try await SpecServer.with { server in
            await Self.seeded(server.audits)
            let first = try await TestStation.make(server: server.baseURL, email: "jane@example.com", name: "kiosk-1")
            let audit = try await first.audit.start(country: "SG", by: Self.actor)
            for tag in ["A1", "A2", "M1", "NOPE", "R1"] { _ = try await first.scan(tag) }
            #expect(await first.audit.syncNow().remaining == 0)

            let second = try await TestStation.make(server: server.baseURL, email: "jane@example.com", name: "kiosk-2")
            try await second.audit.join(auditID: audit.id)
            #expect(try await second.scan("A1").status == .alreadyScanned)
            let unknown = try await second.scan("NOPE")
            #expect(unknown.status == .unknown && unknown.firstScan != nil)
            let archived = try await second.scan("R1")
            #expect(archived.status == .unexpected && archived.reason == .archived)
            #expect(try await second.scan("A3").status == .foundExpected)
            #expect(await second.audit.syncNow().remaining == 0)
            let status = try await second.audit.audit(id: audit.id)
            #expect(status.scannedCount == 3 && status.unexpectedCount == 3)
            #expect(await server.audits.stored.count == 9)
        }
    }

    @Test func scansMadeWhileTheServerIsDownArriveOnceWhenItIsBack() async throws {
        let audits = SpecAudits()
        await Self.seeded(audits)
        let server = try await SpecServer.start(audits: audits)
        // With the server down, each push fails at once: the connection is refused.
        let station = try await TestStation.make(server: server.baseURL, email: "jane@example.com", name: "kiosk-1")
        let audit = try await station.audit.start(country: "SG", by: Self.actor)
        _ = try await station.scan("A1")
        #expect(await station.audit.syncNow().pushed == 1)
        await server.stop()

        for tag in ["A2", "A3", "A1", "ZZ"] { _ = try await station.scan(tag) }
        let offline = await station.audit.syncNow()
        #expect(offline.pushed == 0 && offline.remaining == 4)
        // Restarted while offline: the engine comes back from the local copy and the outbox.
        let restarted = try await TestStation.make(
            server: server.baseURL, email: "jane@example.com", name: "kiosk-1", timeout: .seconds(1),
            path: station.path)
        #expect(try await restarted.scan("A3").status == .alreadyScanned)
        #expect(try await restarted.scan("A4").status == .foundExpected)

        let back = try await SpecServer.start(audits: audits, port: server.port)
        let report = await restarted.audit.syncNow()
        #expect(report.pushed == 6 && report.remaining == 0 && report.rejected == 0)
        let stored = await audits.stored
        #expect(stored.count == 7 && Set(stored.compactMap { $0 }).count == 7)
        let onServer = try await restarted.audit.audit(id: audit.id)
        #expect(onServer.scannedCount == 4 && onServer.unexpectedCount == 1)
        await back.stop()
    }

    @Test(arguments: [
        [Fault.dropAnswer, .dropAnswer],
        [Fault.error500, .reset],
        [Fault.pass, .dropAnswer, .error500, .reset, .delay(2.5), .dropAnswer]
    ])
    func lostAnswersCountEveryScanOnce(faults: [Fault]) async throws {
        try await SpecServer.with { server in
            await Self.seeded(server.audits)
            let direct = try await TestStation.make(server: server.baseURL, email: "jane@example.com", name: "kiosk-1")
            let audit = try await direct.audit.start(country: "SG", by: Self.actor)
            let proxy = try FaultProxy(upstreamPort: server.port, plan: faults)
            defer { proxy.stop() }
            let station = try await TestStation.make(
                server: server.baseURL, email: "jane@example.com", name: "kiosk-1",
                via: "http://127.0.0.1:\(proxy.port)", timeout: .seconds(2), path: direct.path)
            for tag in ["A1", "A2", "A3", "A1", "M1", "UNKNOWN-1", "A5"] { _ = try await station.scan(tag) }
            let report = await station.audit.syncNow()
            #expect(report.remaining == 0 && report.rejected == 0)
            let stored = await server.audits.stored
            #expect(stored.count == 7 && Set(stored.compactMap { $0 }).count == 7)
            let onServer = try await direct.audit.audit(id: audit.id)
            #expect(onServer.scannedCount == 4 && onServer.unexpectedCount == 2)
            #expect(proxy.applied.count >= faults.count)
        }
    }
}
