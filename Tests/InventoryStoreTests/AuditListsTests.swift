import Foundation
import InventoryCore
import InventoryStore
import Testing

@Suite("Audit details, history and summary")
struct AuditListsTests {
    /// 25 expected SG assets (every fifth a monitor), 7 of them scanned, and 3 unexpected entries.
    static func audited() async throws -> (TemporaryStore, SQLiteAuditService, AuditID) {
        let store = try TemporaryStore()
        for n in 0..<25 {
            let tag = String(format: "SG-%03d", n)
            _ = try await store.assets.create(
                AssetInput(
                    assetTag: tag, serialNum: "SER\(n)", name: n % 5 == 0 ? "Monitor \(n)" : "Laptop \(n)",
                    country: "SG", location: n < 10 ? "Floor 1" : "Floor_2"))
        }
        try await store.addAsset("MY-1", name: "Monitor abroad", country: "MY")
        let service = store.audits()
        let audit = try await service.start(country: "SG", by: alice).id
        for (n, tag) in ["SG-003", "SG-000", "SG-010", "SER11", "SG-020", "SG-021", "SG-024"].enumerated() {
            _ = try await service.record(
                ScanRequest(
                    identifier: tag, auditId: audit, source: .camera,
                    scannedAt: RulesFixture.t0.addingTimeInterval(Double(n)), deviceName: "kiosk-\(n)", user: "user-\(n)"))
        }
        for identifier in ["GHOST-1", "MY-1", "GHOST-2", "GHOST-1"] {
            _ = try await service.record(ScanRequest(identifier: identifier, auditId: audit))
        }
        return (store, service, audit)
    }

    @Test func listsArePagedWithTotals() async throws {
        let (_, service, audit) = try await Self.audited()
        let page1 = try await service.details(auditID: audit, list: .all, query: ListQuery(page: 1, perPage: 10))
        #expect(page1.items.count == 10 && page1.items.first?.assetTag == "SG-000")
        #expect(page1.pagination == Pagination(query: ListQuery(page: 1, perPage: 10), total: 25))
        #expect(page1.pagination.lastPage == 3)
        let page3 = try await service.details(auditID: audit, list: .all, query: ListQuery(page: 3, perPage: 10))
        #expect(page3.items.map(\.assetTag) == (20..<25).map { String(format: "SG-%03d", $0) })
        let beyond = try await service.details(auditID: audit, list: .all, query: ListQuery(page: 9, perPage: 10))
        #expect(beyond.items.isEmpty && beyond.pagination.total == 25)
        let big = try await service.details(auditID: audit, list: .all, query: ListQuery(perPage: 5000))
        #expect(big.pagination.perPage == 100 && big.items.count == 25)
        let all = try await service.details(auditID: audit, list: .all, query: ListQuery(perPage: 100)).items
        #expect(Set(all.map(\.assetTag)).count == 25)
    }

    @Test func scannedMissingAndUnexpectedSplitTheAudit() async throws {
        let (_, service, audit) = try await Self.audited()
        let scanned = try await service.details(auditID: audit, list: .scanned, query: ListQuery(perPage: 100))
        #expect(scanned.items.compactMap(\.assetTag) == ["SG-000", "SG-003", "SG-010", "SG-011", "SG-020", "SG-021", "SG-024"])
        #expect(scanned.items.allSatisfy { $0.outcome == .scanned && $0.scanCount == 1 && $0.source == .camera })
        let sg11 = try #require(scanned.items.first { $0.assetTag == "SG-011" })
        #expect(
            sg11.firstScan
                == FirstScan(
                    scannedAt: RulesFixture.t0.addingTimeInterval(3), station: "kiosk-3",
                    user: "user-3", source: .camera))
        let missing = try await service.details(auditID: audit, list: .missing, query: ListQuery(perPage: 100))
        #expect(missing.pagination.total == 18)
        #expect(missing.items.allSatisfy { $0.outcome == .missing && $0.firstScannedAt == nil && $0.scanCount == 0 })
        let unexpected = try await service.details(auditID: audit, list: .unexpected, query: ListQuery())
        #expect(unexpected.items.map(\.identifier) == ["GHOST-1", "MY-1", "GHOST-2"])
        #expect(unexpected.items.map(\.reason) == [.unknown, .otherCountry, .unknown])
        #expect(unexpected.items.map(\.scanCount) == [2, 1, 1])
        #expect(unexpected.items[0].assetTag == nil && unexpected.items[0].name == nil && unexpected.items[0].id == nil)
        #expect(unexpected.items[1].assetTag == "MY-1" && unexpected.items[1].country == "MY")
    }

    @Test(
        "Search narrows every list",
        arguments: [
            (AuditList.all, "Monitor", 5), (.all, "SER1", 11), (.all, "floor_2", 15), (.scanned, "Monitor", 3),
            (.missing, "Monitor", 2), (.missing, "SG-02", 2), (.unexpected, "GHOST", 2), (.unexpected, "abroad", 1),
            // LIKE wildcards in the text are literal: only the Floor_2 locations hold an underscore.
            (.all, "%", 0), (.all, "_", 15), (.all, "nothing like it", 0)
        ])
    func search(list: AuditList, text: String, total: Int) async throws {
        let (_, service, audit) = try await Self.audited()
        let page = try await service.details(auditID: audit, list: list, query: ListQuery(search: text, perPage: 100))
        #expect(page.pagination.total == total)
        #expect(page.items.count == total)
    }

    @Test func historyListsPastAndRunningAuditsNewestFirst() async throws {
        let store = try TemporaryStore()
        try await store.addAsset("SG-1")
        let service = store.audits()
        let first = try await service.start(country: "SG", by: alice)
        _ = try await service.end(auditID: first.id, by: alice)
        try await Task.sleep(for: .milliseconds(20))
        let my = try await service.start(country: "MY", by: bob)
        try await Task.sleep(for: .milliseconds(20))
        let second = try await service.start(country: "SG", by: bob)
        let all = try await service.history(country: nil, query: ListQuery())
        #expect(all.items.map(\.id) == [second.id, my.id, first.id])
        #expect(all.items.map(\.isActive) == [true, true, false])
        let sg = try await service.history(country: "sg", query: ListQuery())
        #expect(sg.items.map(\.id) == [second.id, first.id] && sg.pagination.total == 2)
        let paged = try await service.history(country: nil, query: ListQuery(page: 2, perPage: 1))
        #expect(paged.items.map(\.id) == [my.id] && paged.pagination.lastPage == 3)
        #expect(await failure { _ = try await service.history(country: "XX", query: ListQuery()) }?.fields.keys.sorted() == ["country"])
    }

    @Test func summaryOfARunningAudit() async throws {
        let (_, service, audit) = try await Self.audited()
        let summary = try await service.summary(auditID: audit)
        #expect(summary.audit.isActive && summary.audit.endedAt == nil)
        #expect(summary.audit.progress == AuditProgress(totalAssets: 25, scannedCount: 7, unexpectedCount: 3))
        #expect(summary.audit.completionPercentage == 28)
        #expect(summary.missing.count == 18 && summary.unexpected.count == 3)
    }
}
