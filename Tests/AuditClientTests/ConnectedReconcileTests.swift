import AuditAPI
import AuditClient
import AuditTestSupport
import Foundation
import InventoryCore
import Testing

/// A connected station reconciles through the server's route; a server of the seeds' API
/// cannot reconcile, and the station says so plainly.
@Suite("Connected stations: reconciliation")
struct ConnectedReconcileTests {
    @Test(arguments: Backend.allCases) func aStationReconcilesThroughTheServer(backend: Backend) async throws {
        try await TestServer.with(backend) { server in
            try await server.admin("kiosk@example.com")
            try await server.seed([("A1", "SG"), ("A2", "SG")])
            let station = try await TestStation.make(server, email: "kiosk@example.com", name: "kiosk-1")
            let actor = Actor(user: "kiosk", station: "kiosk-1")
            let audit = try await station.audit.start(country: "SG", by: actor)
            _ = try await station.scan("A1")
            _ = await station.audit.syncNow()
            await #expect(throws: InventoryError.auditRunning(audit.id)) {
                try await station.audit.reconcile(ReconcileRequest(auditId: audit.id, actions: [.markMissing], preview: false))
            }
            _ = try await station.audit.end(auditID: audit.id, by: actor)
            let preview = try await station.audit.reconcile(ReconcileRequest(auditId: audit.id, actions: [], preview: true))
            #expect(preview.preview && preview.total == 1 && preview.changes.first?.assetTag == "A2" && preview.counts.markMissing == 1)
            let applied = try await station.audit.reconcile(ReconcileRequest(auditId: audit.id, actions: [.markMissing], preview: false))
            #expect(applied.total == 1 && applied.changes.first?.to == "MISSING")
            let a2 = try #require(try await server.parts.backend.assets.find(identifier: "A2"))
            #expect(a2.status == .missing)
            // The server's history names the user of the station's token.
            let history = try await server.parts.backend.assets.history(assetID: a2.id, query: ListQuery())
            #expect(history.items.map(\.kind) == ["mark_missing"] && history.items.first?.auditId == audit.id)
            #expect(history.items.first?.user == "kiosk")
        }
    }

    @Test func aServerOfTheSeedsAPICannotReconcile() async throws {
        try await SpecServer.with { server in
            await AnyServerTests.seeded(server.audits)
            let station = try await TestStation.make(server: server.baseURL, email: "jane@example.com", name: "kiosk-1")
            await #expect {
                try await station.audit.reconcile(ReconcileRequest(auditId: "any", actions: [.markMissing], preview: true))
            } throws: { error in
                (error as? InventoryError)?.errorDescription?.contains("cannot reconcile") == true
            }
        }
    }
}
