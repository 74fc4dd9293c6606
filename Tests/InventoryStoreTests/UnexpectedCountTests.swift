import Foundation
import InventoryCore
import InventoryStore
import Testing

/// The unexpected count is one per distinct identifier; a known asset's tag and serial are one.
@Suite("Unexpected count")
struct UnexpectedCountTests {
    @Test func aKnownAssetCountsOnceWhateverIdentifierFindsIt() async throws {
        let store = try TemporaryStore()
        try await store.addAsset("SG-1")
        try await store.addAsset("MY-1", serial: "MY-SN", country: "MY")
        let service = store.audits()
        let audit = try await service.start(country: "SG", by: alice).id
        for identifier in ["MY-1", "MY-SN", " MY-1 ", "MY-SN"] {
            _ = try await service.record(ScanRequest(identifier: identifier, auditId: audit))
        }
        #expect(try await service.audit(id: audit).unexpectedCount == 1)
        let entries = try await service.details(auditID: audit, list: .unexpected, query: ListQuery()).items
        #expect(entries.map(\.identifier) == ["MY-1"] && entries.map(\.scanCount) == [4])
    }

    @Test func anIdentifierRegisteredDuringTheAuditStaysOneEntry() async throws {
        // Scanned while unknown, then registered (SG, after the start), then scanned again: one
        // identifier, one thing on the shelf.
        let store = try TemporaryStore()
        try await store.addAsset("SG-1")
        let service = store.audits()
        let audit = try await service.start(country: "SG", by: alice).id
        #expect(try await service.record(ScanRequest(identifier: "NEW-1", auditId: audit)).status == .unknown)
        try await store.addAsset("NEW-1")
        let again = try await service.record(ScanRequest(identifier: "NEW-1", auditId: audit))
        #expect(again.status == .unexpected && again.reason == .notInExpectedSet)
        let count = try await service.audit(id: audit).unexpectedCount
        #expect(count == 1)
        let entry = try #require(try await service.details(auditID: audit, list: .unexpected, query: ListQuery()).items.first)
        #expect(entry.assetTag == "NEW-1" && entry.reason == .notInExpectedSet && entry.scanCount == 2)
    }

    @Test func aCaseInsensitiveStationCountsOneUnknownInTwoCases() async throws {
        let store = try TemporaryStore()
        try await store.addAsset("SG-1")
        let service = store.audits(caseSensitive: false)
        let audit = try await service.start(country: "SG", by: alice).id
        _ = try await service.record(ScanRequest(identifier: "ghost-1", auditId: audit))
        let second = try await service.record(ScanRequest(identifier: "GHOST-1", auditId: audit))
        #expect(second.progress.unexpectedCount == 1)
        #expect(second.firstScan != nil, "the second scan is a repeat of the first")
    }
}
