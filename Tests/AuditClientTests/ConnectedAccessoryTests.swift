import AuditAPI
import AuditTestSupport
import Foundation
import InventoryCore
import TestKit
import Testing

@testable import AuditClient

/// A connected station and accessories: a scan of an accessory's tag is pending on the station
/// (its copy holds the audit's assets only) until the server counts it; the station reads the
/// new outcome and its optional `accessory`; a typed count goes to the server.
@Suite("Connected stations: accessories")
struct ConnectedAccessoryTests {
    @Test(arguments: Backend.allCases) func aStationCountsThroughTheServer(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            try await server.admin("kiosk@example.com")
            try await server.seed([("A1", "SG")])
            _ = try await server.parts.backend.accessories.create(
                AccessoryInput(name: "Cable", category: "Cables", totalQuantity: 6, country: "SG", tag: "CABLE", location: "Dock A"))
            let station = try await Station.make(server, email: "kiosk@example.com", name: "kiosk-1")
            let decided = Locked<[ScanResult]>([])
            await station.audit.onDecided { result, _ in decided.update { $0.append(result) } }
            let audit = try await station.audit.start(country: "SG", by: Actor(user: "kiosk", station: "kiosk-1"))
            let local = try await station.scan("CABLE")
            #expect(local.status == .pending, "the station's copy does not know accessories")
            _ = try await station.scan("A1")
            let report = await station.audit.syncNow()
            #expect(report.pushed == 2)
            let counted = try #require(decided.get().first { $0.identifier == "CABLE" })
            #expect(counted.status == .accessoryCounted && counted.accessory?.counted == 1 && counted.accessory?.expected == 6)
            #expect(try await station.audit.audit(id: audit.id).scannedCount == 1, "the accessory is apart from the asset numbers")

            let typed = try await station.audit.count(CountRequest(tag: "CABLE", quantity: 4, auditId: audit.id, location: "Dock B"))
            #expect(typed.countedHere == 4 && typed.accessory.counted == 5)
            let listed = try await station.audit.accessories(auditID: audit.id)
            #expect(listed.map(\.tag) == ["CABLE"] && listed.first?.difference == -1)
        }
    }

    @Test func theNewOutcomeIsReadAndAnUnknownOneIsPending() throws {
        let counted =
            #"{"identifier":"CABLE","status":"accessory_counted","message":"Cable (CABLE): 1 counted","progress":{"total_assets":2,"scanned_count":0,"unexpected_count":0},"accessory":{"accessory_id":3,"tag":"CABLE","name":"Cable","location":null,"expected":6,"counted":1,"difference":-5}}"#
        let answer = try LenientAnswerTests.decode(Lenient<ScanResult>.self, counted).value
        #expect(answer.status == .accessoryCounted && answer.accessory?.tag == "CABLE" && answer.accessory?.difference == -5)
        // A server's outcome this station does not know, and an accessory it cannot read: read, not refused.
        let future = #"{"identifier":"X","status":"weighed","message":"?","progress":{"total_assets":2},"accessory":{"tag":7}}"#
        let other = try LenientAnswerTests.decode(Lenient<ScanResult>.self, future).value
        #expect(other.status == .pending && other.accessory == nil)
    }
}
