import AuditTestSupport
import Foundation
import GRDB
import InventoryCore
import InventoryStore
@testable import PostgresStore
import TestKit
import Testing

/// Reconciling an ended audit (SPEC "Locations, undo, and acting on what an audit found"):
/// a preview changes nothing, an apply is all or nothing and recorded in each asset's
/// history, a second run changes nothing, and the audit's report never changes; on both back ends.
@Suite("Reconciliation")
struct ReconcileTests {
    /// A back end, and a way to run raw SQL on its database (to make a write fail on purpose).
    struct Fixture {
        var server: ServerBackend
        var execute: @Sendable (String) async throws -> Void
        var close: @Sendable () async -> Void
        var audits: any ServerAuditService { server.audits }
        var assets: any AssetService { server.assets }

        func asset(_ tag: String) async throws -> Asset {
            try #require(try await assets.find(identifier: tag), "asset \(tag)")
        }

        func report(_ audit: AuditID) async throws -> Data {
            let data = Locked(Data())
            for format in [ReportFormat.csv, .json] {
                try await audits.report(auditID: audit, format: format) { chunk in data.update { $0.append(chunk) } }
            }
            return data.get()
        }

        /// Every asset as it is, by tag.
        func inventory() async throws -> [String: Asset] {
            let page = try await assets.list(AssetFilter(), query: ListQuery(perPage: 100))
            return Dictionary(uniqueKeysWithValues: page.items.map { ($0.assetTag, $0) })
        }
    }

    static func make(_ backend: Backend) async throws -> Fixture {
        switch backend {
        case .sqlite:
            let database = try AppDatabase(path: TestServer.temporaryPath())
            return Fixture(server: .sqlite(database), execute: { sql in try await database.writer.write { try $0.execute(sql: sql) } }, close: {})
        case .postgres:
            let (database, close) = try await PostgresCluster.openNewDatabase()
            return Fixture(
                server: .postgres(database), execute: { sql in try await database.read { try await $0.run("\(unescaped: sql)") } },
                close: close)
        }
    }

    /// SG assets A-1 (IN_STOCK), A-2 (DEPLOYED) and A-3 (REPAIR) at Dock A, B-1 at Dock B, and
    /// MY-1; an ended audit of SG that found A-1 at Dock B (misplaced) and B-1 at Dock B,
    /// missed A-2 and A-3, and scanned the unknown tags GHOST-1 (at Dock B) and GHOST-2.
    static func setUp(_ backend: Backend) async throws -> (fixture: Fixture, audit: AuditID) {
        let fixture = try await make(backend)
        do {
            for (tag, status, location) in [
                ("A-1", "IN_STOCK", "Dock A"), ("A-2", "DEPLOYED", "Dock A"), ("A-3", "REPAIR", "Dock A"), ("B-1", "IN_STOCK", "Dock B")
            ] {
                _ = try await fixture.assets.create(
                    AssetInput(assetTag: tag, name: "Laptop \(tag)", status: status, country: "SG", location: location))
            }
            _ = try await fixture.assets.create(AssetInput(assetTag: "MY-1", name: "Laptop", country: "MY"))
            let audit = try await fixture.audits.start(country: "SG", by: alice).id
            for (n, (tag, location)) in [("A-1", "Dock B"), ("B-1", "Dock B"), ("GHOST-1", "Dock B"), ("GHOST-2", nil)].enumerated() {
                _ = try await fixture.audits.record(
                    ScanRequest(identifier: tag, auditId: audit, scanId: "s\(n)", deviceName: "kiosk-1", user: "alice", location: location))
            }
            _ = try await fixture.audits.end(auditID: audit, by: alice)
            return (fixture, audit)
        } catch {
            await fixture.close()
            throw error
        }
    }

    static func reconcile(_ fixture: Fixture, _ audit: AuditID, _ actions: Set<ReconcileAction>, preview: Bool = false) async throws
        -> ReconcileResult
    {
        try await fixture.audits.reconcile(ReconcileRequest(auditId: audit, actions: actions, preview: preview, user: "carol"))
    }

    static let all = Set(ReconcileAction.allCases)

    @Test("A preview lists every change and changes nothing", arguments: Backend.allCases)
    func preview(_ backend: Backend) async throws {
        let (fixture, audit) = try await Self.setUp(backend)
        defer { Task { await fixture.close() } }
        let before = try await fixture.inventory()
        let report = try await fixture.report(audit)
        let preview = try await Self.reconcile(fixture, audit, [], preview: true)
        #expect(preview.preview && preview.actions == ReconcileAction.allCases)
        #expect(preview.counts.moveMisplaced == 1 && preview.counts.markMissing == 2 && preview.counts.registerUnknown == 2)
        #expect(preview.counts.restoreFound == 0 && preview.total == 5 && !preview.truncated)
        #expect(
            preview.changes.map { "\($0.action.rawValue) \($0.assetTag) \($0.field) \($0.from ?? "-")>\($0.to ?? "-")" } == [
                "move_misplaced A-1 location Dock A>Dock B", "mark_missing A-2 status DEPLOYED>MISSING", "mark_missing A-3 status REPAIR>MISSING",
                "register_unknown GHOST-1 asset_tag ->GHOST-1", "register_unknown GHOST-2 asset_tag ->GHOST-2"
            ])
        #expect(preview.changes.filter { $0.action == .registerUnknown }.allSatisfy { $0.assetId == nil })
        #expect(preview.message.contains("nothing was changed"))
        // Nothing changed: the inventory, the histories, the report.
        #expect(try await fixture.inventory() == before)
        #expect(try await fixture.assets.find(identifier: "GHOST-1") == nil)
        for asset in before.values { #expect(try await fixture.assets.history(assetID: asset.id, query: ListQuery()).pagination.total == 0) }
        #expect(try await fixture.report(audit) == report)
        // A preview of one action lists only that action's changes.
        let moves = try await Self.reconcile(fixture, audit, [.moveMisplaced], preview: true)
        #expect(moves.total == 1 && moves.counts.markMissing == nil && moves.changes.map(\.assetTag) == ["A-1"])
    }

    @Test("Applying changes the inventory, records each change in the asset's history, and a second run changes nothing", arguments: Backend.allCases)
    func apply(_ backend: Backend) async throws {
        let (fixture, audit) = try await Self.setUp(backend)
        defer { Task { await fixture.close() } }
        let report = try await fixture.report(audit)
        let preview = try await Self.reconcile(fixture, audit, Self.all, preview: true)
        let applied = try await Self.reconcile(fixture, audit, Self.all)
        #expect(!applied.preview && applied.total == 5 && applied.counts == preview.counts)
        #expect(applied.changes.map(\.assetTag) == preview.changes.map(\.assetTag))
        #expect(applied.changes.allSatisfy { $0.assetId != nil })

        #expect(try await fixture.asset("A-1").location == "Dock B")
        #expect(try await fixture.asset("A-2").status == .missing)
        #expect(try await fixture.asset("A-3").status == .missing)
        let b1 = try await fixture.asset("B-1")
        #expect(b1.status == .inStock && b1.location == "Dock B")
        let ghost = try await fixture.asset("GHOST-1")
        #expect(ghost.country == "SG" && ghost.location == "Dock B" && ghost.status == .inStock && ghost.name == "GHOST-1")
        #expect(ghost.notes?.contains(audit) == true)
        #expect(try await fixture.asset("GHOST-2").location == nil)

        let history = try await fixture.assets.history(assetID: try await fixture.asset("A-2").id, query: ListQuery()).items
        #expect(history.count == 1)
        #expect(history.first?.field == "status" && history.first?.from == "DEPLOYED" && history.first?.to == "MISSING")
        #expect(history.first?.auditId == audit && history.first?.user == "carol" && history.first?.kind == "mark_missing")
        let moved = try await fixture.assets.history(assetID: try await fixture.asset("A-1").id, query: ListQuery()).items
        #expect(moved.map { "\($0.field) \($0.from ?? "-")>\($0.to ?? "-") \($0.kind)" } == ["location Dock A>Dock B move_misplaced"])
        #expect(try await fixture.assets.history(assetID: ghost.id, query: ListQuery()).items.map(\.kind) == ["register_unknown"])

        // A second run, and a preview after it, change nothing.
        let after = try await fixture.inventory()
        let again = try await Self.reconcile(fixture, audit, Self.all)
        #expect(again.total == 0 && again.changes.isEmpty && again.message.contains("nothing to change"))
        #expect(try await Self.reconcile(fixture, audit, [], preview: true).total == 0)
        #expect(try await fixture.inventory() == after)
        // The audit's own report is as it was when the audit ended.
        #expect(try await fixture.report(audit) == report)
    }

    @Test("Bad reconciliations are refused with a clear error and change nothing", arguments: Backend.allCases)
    func badInput(_ backend: Backend) async throws {
        let (fixture, audit) = try await Self.setUp(backend)
        defer { Task { await fixture.close() } }
        let before = try await fixture.inventory()
        // No action chosen for an apply.
        let none = await failure { _ = try await Self.reconcile(fixture, audit, []) }
        #expect(none?.fields["actions"]?.first?.contains("choose at least one") == true)
        // An unknown audit.
        #expect(await failure { _ = try await Self.reconcile(fixture, "no-such-audit", Self.all) } == .notFound("audit no-such-audit"))
        // A running audit, for an apply and for a preview.
        let running = try await fixture.audits.start(country: "SG", by: alice).id
        _ = try await fixture.audits.record(ScanRequest(identifier: "A-1", auditId: running, scanId: "r1", location: "Dock C"))
        #expect(await failure { _ = try await Self.reconcile(fixture, running, Self.all) } == .auditRunning(running))
        let refusal = await failure { _ = try await Self.reconcile(fixture, running, [], preview: true) }
        #expect(refusal == .auditRunning(running) && refusal?.errorDescription?.contains("end it before reconciling") == true)
        // A user name that is not text.
        #expect(
            await failure {
                _ = try await fixture.audits.reconcile(ReconcileRequest(auditId: audit, actions: Self.all, preview: false, user: "x\u{7}"))
            }?.code == .validationError)
        #expect(try await fixture.inventory() == before)
    }

    @Test("It is all or nothing: when one registration fails, no other change is kept", arguments: Backend.allCases)
    func allOrNothing(_ backend: Backend) async throws {
        let (fixture, audit) = try await Self.setUp(backend)
        defer { Task { await fixture.close() } }
        let before = try await fixture.inventory()
        switch backend {
        case .sqlite:
            try await fixture.execute(
                """
                CREATE TRIGGER refuse_ghost_2 BEFORE INSERT ON assets WHEN NEW.asset_tag = 'GHOST-2'
                BEGIN SELECT RAISE(ABORT, 'GHOST-2 collides'); END
                """)
        case .postgres:
            try await fixture.execute(
                """
                CREATE FUNCTION refuse_ghost_2() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.asset_tag = 'GHOST-2' THEN RAISE EXCEPTION 'GHOST-2 collides'; END IF; RETURN NEW; END $$
                """)
            try await fixture.execute("CREATE TRIGGER refuse_ghost_2 BEFORE INSERT ON assets FOR EACH ROW EXECUTE FUNCTION refuse_ghost_2()")
        }
        let refused = await failure { _ = try await Self.reconcile(fixture, audit, Self.all) }
        #expect(refused?.errorDescription?.contains("GHOST-2 collides") == true)
        #expect(try await fixture.inventory() == before)
        for asset in before.values { #expect(try await fixture.assets.history(assetID: asset.id, query: ListQuery()).pagination.total == 0) }
        // Without the failing registration the same reconciliation goes through whole.
        let moved = try await Self.reconcile(fixture, audit, [.moveMisplaced, .markMissing])
        #expect(moved.total == 3)
        #expect(try await fixture.asset("A-1").location == "Dock B")
    }

    @Test("A later audit that finds a MISSING asset says so, and its reconciliation restores the earlier status", arguments: Backend.allCases)
    func restore(_ backend: Backend) async throws {
        let (fixture, audit) = try await Self.setUp(backend)
        defer { Task { await fixture.close() } }
        _ = try await Self.reconcile(fixture, audit, [.markMissing])
        #expect(try await fixture.asset("A-2").status == .missing)

        let later = try await fixture.audits.start(country: "SG", by: bob).id
        let found = try await fixture.audits.record(ScanRequest(identifier: "A-2", auditId: later, scanId: "l1", user: "bob"))
        #expect(found.status == .foundExpected && found.missingSinceAudit == audit)
        #expect(found.message.contains("was missing since audit \(audit)"))
        let other = try await fixture.audits.record(ScanRequest(identifier: "B-1", auditId: later, scanId: "l2", user: "bob"))
        #expect(other.missingSinceAudit == nil && !other.message.contains("missing since"))
        // A replay of the scan says so too.
        #expect(try await fixture.audits.record(ScanRequest(identifier: "A-2", auditId: later, scanId: "l1", user: "bob")).missingSinceAudit == audit)
        _ = try await fixture.audits.end(auditID: later, by: bob)

        let restored = try await Self.reconcile(fixture, later, [.restoreFound, .markMissing])
        #expect(restored.counts.restoreFound == 1 && restored.counts.markMissing == 1)
        #expect(try await fixture.asset("A-2").status == .deployed)
        // A-3 was already MISSING; A-1 was not found by the later audit, and is marked now.
        #expect(try await fixture.asset("A-3").status == .missing)
        #expect(try await fixture.asset("A-1").status == .missing)
        let history = try await fixture.assets.history(assetID: try await fixture.asset("A-2").id, query: ListQuery()).items
        #expect(
            history.map { "\($0.from ?? "-")>\($0.to ?? "-") \($0.kind) \($0.auditId == audit ? "first" : $0.auditId == later ? "later" : "?")" } == [
                "DEPLOYED>MISSING mark_missing first", "MISSING>DEPLOYED restore_found later"
            ])
        // The first audit, reconciled again, does not mark it missing a second time.
        #expect(try await Self.reconcile(fixture, audit, [.markMissing]).total == 0)
        #expect(try await fixture.asset("A-2").status == .deployed)
    }

    @Test("An older audit reconciled after a newer one does not mark missing what the newer one found", arguments: Backend.allCases)
    func olderAfterNewer(_ backend: Backend) async throws {
        let (fixture, audit) = try await Self.setUp(backend)
        defer { Task { await fixture.close() } }
        // The newer audit of SG finds A-2 where it belongs; MY's audit finds A-3 as another
        // country's asset. Both started after the first audit, which missed both.
        let newer = try await fixture.audits.start(country: "SG", by: bob).id
        _ = try await fixture.audits.record(ScanRequest(identifier: "A-2", auditId: newer, scanId: "n1", user: "bob"))
        _ = try await fixture.audits.end(auditID: newer, by: bob)
        let elsewhere = try await fixture.audits.start(country: "MY", by: bob).id
        _ = try await fixture.audits.record(ScanRequest(identifier: "A-3", auditId: elsewhere, scanId: "m1", user: "bob"))

        let preview = try await Self.reconcile(fixture, audit, [.markMissing], preview: true)
        #expect(preview.counts.markMissing == 0, "\(preview.changes)")
        #expect(try await Self.reconcile(fixture, audit, [.markMissing]).total == 0)
        #expect(try await fixture.asset("A-2").status == .deployed)
        #expect(try await fixture.asset("A-3").status == .repair)
        // The newer audit missed A-1, A-3 and B-1; MY's audit, started after it, found A-3.
        let marked = try await Self.reconcile(fixture, newer, [.markMissing])
        #expect(Set(marked.changes.map(\.assetTag)) == ["A-1", "B-1"])
    }

    @Test("Ordinary edits and transfers are in the history too", arguments: Backend.allCases)
    func edits(_ backend: Backend) async throws {
        let fixture = try await Self.make(backend)
        defer { Task { await fixture.close() } }
        let asset = try await fixture.assets.create(AssetInput(assetTag: "E-1", name: "Laptop", country: "SG", location: "Dock A"))
        _ = try await fixture.assets.update(id: asset.id, AssetInput(name: "Laptop 14", location: "Dock C"))
        let customer = try await fixture.server.customers.create(CustomerInput(name: "Acme", contactNumber: "1", address: "x", country: "SG"))
        _ = try await fixture.assets.transfer(id: asset.id, TransferRequest(customerId: customer.id))
        let page = try await fixture.assets.history(assetID: asset.id, query: ListQuery(page: 1, perPage: 2))
        #expect(page.pagination.total == 3 && page.items.map(\.field) == ["name", "location"])
        let last = try await fixture.assets.history(assetID: asset.id, query: ListQuery(page: 2, perPage: 2)).items
        #expect(last.map(\.kind) == ["transfer"] && last.first?.to == String(customer.id))
        #expect(await failure { _ = try await fixture.assets.history(assetID: 999_999, query: ListQuery()) } == .notFound("asset 999999"))
    }
}
