import AuditAPI
import AuditClient
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
            let station = try await Station.make(server, email: "kiosk@example.com", name: "kiosk-1")
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

    @Test func aStationThatCannotReachTheServerRefusesTheVoidAndTheScanStillCounts() async throws {
        try await TestServer.with(.sqlite) { server in
            try await server.admin("kiosk@example.com")
            try await server.seed([("A1", "SG")])
            // Nothing listens there: every call is refused at once, as by a stopped server.
            let stopped = "http://127.0.0.1:\(try Loopback.freePort())"
            let online = try await Station.make(server, email: "kiosk@example.com", name: "kiosk-1")
            let audit = try await online.audit.start(country: "SG", by: Actor(user: "kiosk", station: "kiosk-1"))
            let offline = try await Station.make(
                server, email: "kiosk@example.com", name: "kiosk-1", via: stopped, timeout: .seconds(5), path: online.path)
            let scan = try await offline.scan("A1")
            await #expect {
                try await offline.audit.void(VoidRequest(scanId: scan.scanId))
            } throws: { error in
                (error as? InventoryError)?.errorDescription?.contains("still counts") == true
            }
            #expect(try await offline.audit.audit(id: audit.id).scannedCount == 1)
            _ = await online.audit.syncNow()
            #expect(try await server.parts.audits.audit(id: audit.id).scannedCount == 1)
        }
    }
}
