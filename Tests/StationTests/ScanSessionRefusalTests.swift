import AuditTestSupport
import Foundation
import InventoryCore
import Station
import TestKit
import Testing

/// A scan session on a connected station whose server refuses a scan the station took: against
/// a server that speaks only SPEC's audit API (`SpecServer`), whoever showed the scan is told,
/// and the refused scan no longer counts at the station.
@Suite("A scan session told of the server's refusals", .serialized)
struct ScanSessionRefusalTests {
    static let actor = Actor(user: "jane", station: "kiosk-1")

    static func seeded(_ audits: SpecAudits) async {
        for index in 1...5 { await audits.add(tag: "A\(index)", country: "SG") }
    }

    /// A scan this station took (found, in its copy) that the server then refuses, here because
    /// another station ended the audit meanwhile: whoever showed it is told, with the scan's id,
    /// and the outbox keeps it as rejected.
    @Test func aScanTheServerRefusesIsToldToItsSession() async throws {
        try await SpecServer.with { server in
            await Self.seeded(server.audits)
            let station = try await TestStation.make(server: server.baseURL, email: "jane@example.com", name: "kiosk-1")
            let other = try await TestStation.make(server: server.baseURL, email: "jane@example.com", name: "kiosk-2")
            let audit = try await station.audit.start(country: "SG", by: Self.actor)
            let seen = Locked<[String]>([])
            let session = ScanSession(service: station.audit, connection: station.audit, audit: audit, actor: Self.actor, place: StationPlace()) {
                event in seen.update { $0.append(ScanSessionBatchTests.outline(event) + " " + (Self.scanID(of: event) ?? "-")) }
            }
            _ = try await other.audit.end(auditID: audit.id, by: Self.actor)
            let event = await session.record("A1", source: .manual)
            let scanID = try #require(Self.scanID(of: event))
            let report = await station.audit.syncNow()
            #expect(report.rejected == 1 && report.remaining == 0, "\(report)")
            #expect(seen.get() == ["found_expected A1 at - \(scanID)", "refused REFUSED_BY_SERVER A1 \(scanID)"])
            #expect(try await station.audit.connectedStatus().rejectedScans == 1)
        }
    }

    @Test func aScanTheServerRefusesNoLongerCountsAtTheStation() async throws {
        try await SpecServer.with { server in
            await Self.seeded(server.audits)
            await server.audits.refuseScans(of: "A1")
            let station = try await TestStation.make(server: server.baseURL, email: "jane@example.com", name: "kiosk-1")
            let audit = try await station.audit.start(country: "SG", by: Self.actor)
            let refusals = Locked<[AuditProgress?]>([])
            let session = ScanSession(service: station.audit, connection: station.audit, audit: audit, actor: Self.actor, place: StationPlace()) {
                event in
                if case .refused(let refusal) = event { refusals.update { $0.append(refusal.progress) } }
            }
            guard case .recorded(let found, _) = await session.record("A1", source: .manual) else {
                Issue.record("A1 was not recorded")
                return
            }
            #expect(found.status == .foundExpected && found.progress.scannedCount == 1)
            #expect(await station.audit.syncNow().rejected == 1)
            // The refusal carries the numbers without the refused scan.
            #expect(refusals.get().map { $0?.scannedCount } == [0])
            #expect(try await station.audit.audit(id: audit.id).scannedCount == 0)
            // Scanned again, A1 is found again here: the copy kept no mark of the refused scan.
            guard case .recorded(let again, _) = await session.record("A1", source: .manual) else {
                Issue.record("A1 was not recorded again")
                return
            }
            #expect(again.status == .foundExpected, "\(again.message)")
        }
    }

    static func scanID(of event: ScanEvent) -> String? {
        switch event {
        case .recorded(let result, _), .decided(let result, _): result.scanId
        case .refused(let refusal): refusal.scanID
        case .note: nil
        }
    }
}
