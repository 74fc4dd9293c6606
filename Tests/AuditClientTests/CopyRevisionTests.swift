import AuditAPI
import AuditClient
import AuditTestSupport
import Foundation
import InventoryCore
import Testing

/// A connected station orders the numbers it shows by its copy's own revision: it rises with
/// every change to them (its own scan, the server's numbers taken, a void, a new copy), so the
/// kiosk and its page keep the newest reading whatever order they arrive in, and never go back.
@Suite("Connected stations: the revision of the numbers they show")
struct CopyRevisionTests {
    @Test func theCopysRevisionRisesWithEveryChangeAndNeverGoesBack() async throws {
        try await TestServer.with(.sqlite) { server in
            try await server.admin("kiosk@example.com")
            try await server.seed([("A1", "SG"), ("A2", "SG"), ("A3", "SG")])
            let station = try await TestStation.make(server, email: "kiosk@example.com", name: "kiosk-1")
            let audit = try await station.audit.start(country: "SG", by: Actor(user: "kiosk", station: "kiosk-1"))
            let r0 = try #require(audit.revision)

            let first = try await station.scan("A1")
            let r1 = try #require(first.progress.revision)
            #expect(r1 > r0 && first.progress.scannedCount == 1)
            // A repeat changes no number: the same revision.
            #expect(try await station.scan("A1").progress.revision == r1)

            let second = try await station.scan("A2")
            let r2 = try #require(second.progress.revision)
            #expect(r2 > r1)
            // Delivered: the copy takes the server's numbers (the same count), and moves on.
            _ = await station.audit.syncNow()
            let synced = try await station.audit.audit(id: audit.id)
            #expect(synced.scannedCount == 2 && (synced.revision ?? 0) >= r2)

            let void = try await station.audit.void(VoidRequest(scanId: second.scanId, reason: "wrong shelf"))
            let r3 = try #require(void.progress.revision)
            #expect(r3 > (synced.revision ?? 0) && void.progress.scannedCount == 1)

            // A new copy of the audit (a join again) continues the scale: it never restarts lower.
            try await station.audit.join(auditID: audit.id)
            let rejoined = try await station.audit.audit(id: audit.id)
            #expect(try #require(rejoined.revision) > r3 && rejoined.scannedCount == 1)
        }
    }
}
