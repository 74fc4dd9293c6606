import Foundation
import InventoryCore
import InventoryStore
import Testing

@Suite("Audit lifecycle")
struct AuditLifecycleTests {
    /// SG: three expected assets, one archived, one disposed; MY: two.
    static func inventory() async throws -> TemporaryStore {
        let store = try TemporaryStore()
        try await store.addAsset("SG-1", serial: "S1")
        try await store.addAsset("SG-2", serial: "S2", status: .deployed)
        try await store.addAsset("SG-3", status: .repair)
        try await store.addAsset("SG-A", status: .archived)
        try await store.addAsset("SG-D", status: .disposed)
        try await store.addAsset("MY-1", country: "MY")
        try await store.addAsset("MY-2", country: "MY")
        return store
    }

    @Test func startFixesTheExpectedSetOfOneCountry() async throws {
        let store = try await Self.inventory()
        let audit = try await store.audits().start(country: "sg", by: alice)
        #expect(audit.country == "SG")
        #expect(audit.totalAssets == 3)
        #expect(audit.scannedCount == 0 && audit.missingCount == 3 && audit.unexpectedCount == 0)
        #expect(audit.completionPercentage == 0)
        #expect(audit.isActive && audit.endedAt == nil && audit.startedBy == "alice")
        #expect(UUID(uuidString: audit.id) != nil, "audit ids are UUID strings")
        #expect(try await store.count("audit_expected", where: "audit_id = '\(audit.id)'") == 3)
    }

    @Test func aSecondStartInTheSameCountryIsRefused() async throws {
        let store = try await Self.inventory()
        let first = try await store.audits().start(country: "SG", by: alice)
        let error = await failure { _ = try await store.audits().start(country: "sg", by: bob) }
        #expect(error == .auditAlreadyActive(country: "SG", auditID: first.id))
        #expect(error?.code == .auditAlreadyActive)
        // A second kiosk joins the running audit instead.
        #expect(try await store.audits().activeAudits().map(\.id) == [first.id])
        #expect(try await store.count("audits") == 1)
        // Another country may run at the same time, and SG may start again once ended.
        _ = try await store.audits().start(country: "MY", by: bob)
        _ = try await store.audits().end(auditID: first.id, by: alice)
        let again = try await store.audits().start(country: "SG", by: bob)
        #expect(again.id != first.id && again.totalAssets == 3)
    }

    @Test func theExpectedSetStaysAsItWasAtTheStart() async throws {
        let store = try await Self.inventory()
        let service = store.audits()
        let audit = try await service.start(country: "SG", by: alice)
        let sg1 = try #require(try await store.assets.find(identifier: "SG-1"))
        let sg2 = try #require(try await store.assets.find(identifier: "SG-2"))
        _ = try await store.assets.delete(id: sg1.id, mode: .archive)
        _ = try await store.assets.update(id: sg2.id, AssetInput(status: "DISPOSED"))
        try await store.addAsset("SG-LATE")
        let archivedSG = try #require(try await store.assets.find(identifier: "SG-A"))
        _ = try await store.assets.update(id: archivedSG.id, AssetInput(status: "IN_STOCK"))

        #expect(try await service.audit(id: audit.id).totalAssets == 3)
        // Archived or disposed since the start: still expected, so found.
        #expect(try await service.record(ScanRequest(identifier: "SG-1", auditId: audit.id)).status == .foundExpected)
        #expect(try await service.record(ScanRequest(identifier: "S2", auditId: audit.id)).status == .foundExpected)
        // Registered or restored since the start: not expected.
        let late = try await service.record(ScanRequest(identifier: "SG-LATE", auditId: audit.id))
        #expect(late.status == .unexpected && late.reason == .notInExpectedSet)
        let restored = try await service.record(ScanRequest(identifier: "SG-A", auditId: audit.id))
        #expect(restored.status == .unexpected && restored.reason == .notInExpectedSet)
        let missing = try await service.details(auditID: audit.id, list: .missing, query: ListQuery())
        #expect(missing.items.map(\.assetTag) == ["SG-3"])
        // The countries list shows today's inventory, the audit keeps its own total.
        let countries = try await service.countries()
        #expect(countries.first { $0.country == "SG" }?.expectedAssets == 3)
        #expect(countries.first { $0.country == "SG" }?.activeAuditId == audit.id)
        #expect(countries.first { $0.country == "MY" } == CountryCount(country: "MY", expectedAssets: 2))
    }

    @Test func endingFreezesTheAudit() async throws {
        let store = try await Self.inventory()
        let service = store.audits()
        let audit = try await service.start(country: "SG", by: alice)
        _ = try await service.record(ScanRequest(identifier: "SG-1", auditId: audit.id, user: "alice"))
        _ = try await service.record(ScanRequest(identifier: "NOPE", auditId: audit.id, user: "alice"))
        let summary = try await service.end(auditID: audit.id, by: bob)
        #expect(!summary.audit.isActive && summary.audit.endedBy == "bob" && summary.audit.startedBy == "alice")
        let endedAt = try #require(summary.audit.endedAt)
        #expect(endedAt >= summary.audit.startedAt && summary.durationSeconds >= 0)
        #expect(summary.audit.progress == AuditProgress(totalAssets: 3, scannedCount: 1, unexpectedCount: 1))
        #expect(summary.missing.map(\.assetTag) == ["SG-2", "SG-3"])
        #expect(summary.missing.allSatisfy { $0.outcome == .missing })
        #expect(summary.unexpected.map(\.identifier) == ["NOPE"])

        let before = try await store.snapshot()
        #expect(
            await failure { _ = try await service.record(ScanRequest(identifier: "SG-2", auditId: audit.id)) }
                == .auditEnded(audit.id))
        #expect(await failure { _ = try await service.record(ScanRequest(identifier: "SG-2")) } == .noActiveAudit(country: nil))
        #expect(await failure { _ = try await service.end(auditID: audit.id, by: alice) } == .auditEnded(audit.id))
        #expect(try await store.snapshot() == before, "refused scans store nothing")
        #expect(try await service.audit(id: audit.id) == summary.audit)
    }

    @Test func withTwoAuditsRunningAScanMustNameOne() async throws {
        let store = try await Self.inventory()
        let service = store.audits()
        let sg = try await service.start(country: "SG", by: alice)
        let my = try await service.start(country: "MY", by: bob)
        let before = try await store.snapshot()
        let error = await failure { _ = try await service.record(ScanRequest(identifier: "SG-1")) }
        #expect(error == .ambiguousAudit(countries: ["MY", "SG"]))
        #expect(await failure { _ = try await service.resolveActive() } == .ambiguousAudit(countries: ["MY", "SG"]))
        #expect(try await store.snapshot() == before)
        #expect(try await service.resolveActive(country: "my").id == my.id)
        #expect(try await service.resolveActive(auditID: sg.id).id == sg.id)
        #expect(await failure { _ = try await service.resolveActive(country: "TH") } == .noActiveAudit(country: "TH"))
        #expect(try await service.record(ScanRequest(identifier: "MY-1", auditId: my.id)).status == .foundExpected)
        #expect(try await service.record(ScanRequest(identifier: "MY-1", auditId: sg.id)).reason == .otherCountry)
        // With one running, a scan that names none goes to it.
        _ = try await service.end(auditID: my.id, by: bob)
        #expect(try await service.record(ScanRequest(identifier: "SG-1")).auditId == sg.id)
    }

    @Test func unknownAuditIDsAreNotFound() async throws {
        let store = try await Self.inventory()
        let service = store.audits()
        let id = UUID().uuidString.lowercased()
        #expect(await failure { _ = try await service.audit(id: id) } == .notFound("audit \(id)"))
        #expect(await failure { _ = try await service.record(ScanRequest(identifier: "SG-1", auditId: id)) } == .notFound("audit \(id)"))
        #expect(await failure { _ = try await service.end(auditID: id, by: alice) } == .notFound("audit \(id)"))
        #expect(await failure { _ = try await service.details(auditID: id, list: .all, query: ListQuery()) } == .notFound("audit \(id)"))
        #expect(await failure { try await service.report(auditID: id, format: .csv) { _ in } } == .notFound("audit \(id)"))
    }

    @Test func anExpectedAssetCannotBeDeletedWhileItsAuditRuns() async throws {
        let store = try await Self.inventory()
        let audit = try await store.audits().start(country: "SG", by: alice)
        let asset = try #require(try await store.assets.find(identifier: "SG-3"))
        let error = await failure { _ = try await store.assets.delete(id: asset.id, mode: .delete) }
        guard case .inUse = error else {
            Issue.record("expected inUse, got \(String(describing: error))")
            return
        }
        #expect(try await store.assets.get(id: asset.id).status == .repair)
        _ = try await store.audits().end(auditID: audit.id, by: alice)
        #expect(try await store.assets.delete(id: asset.id, mode: .delete) == nil)
        // The ended audit still lists it as missing, by the tag it had.
        let missing = try await store.audits().details(auditID: audit.id, list: .missing, query: ListQuery())
        #expect(missing.items.map(\.identifier).contains("SG-3"))
    }
}
