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
            let station = try await TestStation.make(server, email: "kiosk@example.com", name: "kiosk-1")
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
            #expect(typed.countedHere == 4)
            if typed.pending == true {
                // The server took longer than the station waits (a loaded machine): the count was
                // kept, and goes with the next sync.
                #expect(await station.audit.syncNow().remaining == 0)
            } else {
                #expect(typed.accessory.counted == 5)
            }
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

/// A typed count on a connected station behind scans that still wait: kept on the station at once
/// (the server is not asked), and sent in its place among the scans, so a scan made after it
/// counts on top of it. (A count made while the server is gone: KioskGunScreensTests.)
@Suite("Connected stations: counts kept for the server")
struct ConnectedCountOutboxTests {
    @Test(arguments: Backend.allCases) func aCountKeptHereGoesInItsPlaceAmongTheScans(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            try await server.admin("kiosk@example.com")
            try await server.seed([("A1", "SG")])
            _ = try await server.parts.backend.accessories.create(
                AccessoryInput(name: "Cable", category: "Cables", totalQuantity: 9, country: "SG", tag: "CABLE", location: "Dock A"))
            // The count calls the station makes, counted on their way (none is held up).
            let proxy = try FaultProxy(upstreamPort: server.port, plan: [], only: "/audit/count")
            defer { proxy.stop() }
            let station = try await TestStation.make(server, email: "kiosk@example.com", name: "kiosk-1", via: "http://127.0.0.1:\(proxy.port)")
            let audit = try await station.audit.start(country: "SG", by: Actor(user: "kiosk", station: "kiosk-1"))
            func counted() async throws -> Int? { try await server.parts.audits.accessories(auditID: audit.id).first?.counted }

            // A scan still waiting here: the count goes behind it, kept, without asking the server.
            _ = try await station.scan("CABLE")
            let behind = try await station.audit.count(CountRequest(tag: "CABLE", quantity: 4, auditId: audit.id))
            #expect(behind.pending == true && behind.countedHere == 4)
            #expect(proxy.applied.isEmpty, "the server was not asked")
            _ = try await station.scan("CABLE")
            _ = await station.audit.syncNow()
            #expect(try await counted() == 5, "one scanned, 4 typed in its place, then one more scanned")

            // With the server there, a count is answered by it.
            let asked = ContinuousClock.now
            let online = try await station.audit.count(CountRequest(tag: "CABLE", quantity: 2, auditId: audit.id))
            if online.pending == true {
                // The server took longer than the station waits (a loaded machine): the count was
                // kept only after that wait, and goes with the next sync.
                #expect(asked.duration(to: .now) >= .milliseconds(1900), "kept without waiting for a server that is there")
                #expect(await station.audit.syncNow().remaining == 0)
                #expect(try await counted() == 2)
            } else {
                #expect(online.accessory.counted == 2 && proxy.applied == [.pass, .pass])
            }
        }
    }
}
