import AuditTestSupport
import Foundation
import InventoryCore
import Testing

/// `audit reconcile` and `assets history`: standalone on the station's file, and connected
/// through the server's route; the refusals with their exit status.
@Suite struct ReconcileCommandTests {
    @Test func aStandaloneStationReconcilesAnEndedAudit() async throws {
        let (_, database) = try await ManualScanTests.prepared(assets: 3)
        let scanned = try await StationProcess.run(
            ["--database", database, "audit", "scan", "--json", "--user", "bob", "--location", "Dock B"], input: Data("SG-1\nNOPE-1\n".utf8))
        #expect(scanned.status == 0, "\(scanned.stderr)")
        let firstLine = try #require(scanned.lines.first)
        let auditID = try #require(try jsonObject(firstLine)["audit_id"] as? String)

        let running = try await StationProcess.run(["--database", database, "audit", "reconcile", auditID, "--all"])
        #expect(running.status != 0 && running.stderr.contains("still running"), "\(running.stderr)")
        #expect(try await StationProcess.run(["--database", database, "audit", "end"]).status == 0)

        let none = try await StationProcess.run(["--database", database, "audit", "reconcile", auditID])
        #expect(none.status != 0 && none.stderr.contains("choose at least one"), "\(none.stderr)")
        let unknown = try await StationProcess.run(["--database", database, "audit", "reconcile", "no-such-audit", "--preview"])
        #expect(unknown.status != 0 && unknown.stderr.contains("Not found: audit no-such-audit"), "\(unknown.stderr)")

        let preview = try await StationProcess.run(["--database", database, "audit", "reconcile", auditID, "--preview"])
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(preview.stdout.contains("would make 4 changes") && preview.stdout.contains("nothing was changed"), "\(preview.stdout)")
        #expect(preview.stdout.contains("mark_missing") && preview.stdout.contains("SG-2") && preview.stdout.contains("NOPE-1"))
        let untouched = try await StationProcess.run(["--database", database, "assets", "show", "SG-2", "--json"])
        #expect(try jsonObject(untouched.stdout)["status"] as? String == "IN_STOCK")

        let applied = try await StationProcess.run(
            [
                "--database", database, "audit", "reconcile", auditID, "--mark-missing", "--move-misplaced", "--register-unknown", "--user", "carol",
                "--json"
            ])
        #expect(applied.status == 0, "\(applied.stderr)")
        let answer = try jsonObject(applied.stdout)
        #expect(answer["total"] as? Int == 4 && answer["preview"] as? Bool == false)
        #expect((answer["counts"] as? [String: Any])?["mark_missing"] as? Int == 2)

        let history = try await StationProcess.run(["--database", database, "assets", "history", "SG-2"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("IN_STOCK") && history.stdout.contains("MISSING") && history.stdout.contains(auditID))
        #expect(history.stdout.contains("carol") && history.stdout.contains("mark_missing"))
        let moved = try await StationProcess.run(["--database", database, "assets", "history", "SG-1", "--json"])
        let entries = try #require(try jsonObject(moved.stdout)["history"] as? [[String: Any]])
        #expect(entries.map { $0["to"] as? String } == ["Dock B"])
        let registered = try await StationProcess.run(["--database", database, "assets", "show", "NOPE-1", "--json"])
        #expect(try jsonObject(registered.stdout)["location"] as? String == "Dock B")

        let again = try await StationProcess.run(["--database", database, "audit", "reconcile", auditID, "--all"])
        #expect(again.status == 0 && again.stdout.contains("nothing to change"), "\(again.stdout)")
    }

    @Test func aConnectedStationReconcilesThroughTheServer() async throws {
        try await TestServer.with(.sqlite) { server in
            _ = try await server.user("lead@example.com")
            _ = try await server.user("viewer@example.com", type: "STAFF", canEditAssets: false)
            try await server.seed([("A1", "SG"), ("A2", "SG")])
            let audit = try await server.parts.backend.audits.start(country: "SG", by: Actor(user: "lead", station: "api"))
            _ = try await server.parts.backend.audits.record(ScanRequest(identifier: "A1", auditId: audit.id))
            _ = try await server.parts.backend.audits.end(auditID: audit.id, by: Actor(user: "lead", station: "api"))

            for (email, allowed) in [("viewer@example.com", false), ("lead@example.com", true)] {
                let (_, station) = try StationProcess.scratch()
                let login = try await StationProcess.run(
                    ["--database", station, "login", "--server", server.baseURL, "--email", email, "--password-stdin"],
                    input: Data("secret-pass\n".utf8))
                #expect(login.status == 0, "\(login.stderr)")
                let run = try await StationProcess.run(["--database", station, "audit", "reconcile", audit.id, "--mark-missing"])
                if allowed {
                    #expect(run.status == 0 && run.stdout.contains("made 1 change"), "\(run.stdout)\(run.stderr)")
                    let history = try await StationProcess.run(["--database", station, "assets", "history", "A2"])
                    #expect(history.stdout.contains("mark_missing") && history.stdout.contains("lead"), "\(history.stdout)\(history.stderr)")
                } else {
                    #expect(run.status != 0 && run.stderr.contains("can_edit_assets"), "\(run.stderr)")
                    #expect(try await server.parts.backend.assets.find(identifier: "A2")?.status == .inStock)
                }
            }
            #expect(try await server.parts.backend.assets.find(identifier: "A2")?.status == .missing)
        }
    }
}
