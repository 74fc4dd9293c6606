import Foundation
import InventoryCore
import InventoryStore
import Testing

/// A station retries a scan with the same client-generated scan_id: it must count once and
/// give back the same outcome.
@Suite("Idempotent scan ids")
struct ScanIdempotencyTests {
    static func running() async throws -> (TemporaryStore, SQLiteAuditService, AuditID) {
        let store = try TemporaryStore()
        try await store.addAsset("SG-1", serial: "S1")
        try await store.addAsset("SG-2")
        try await store.addAsset("MY-1", country: "MY")
        let service = store.audits()
        let audit = try await service.start(country: "SG", by: alice)
        return (store, service, audit.id)
    }

    static func request(_ identifier: String, _ audit: AuditID, id: String, user: String = "alice") -> ScanRequest {
        ScanRequest(
            identifier: identifier, auditId: audit, scanId: id, source: .camera,
            scannedAt: RulesFixture.t0, deviceName: "kiosk-1", user: user)
    }

    /// The parts of a result a retry must see unchanged.
    static func outcome(_ result: ScanResult) -> [String?] {
        [
            result.identifier, result.status.rawValue, result.message, result.reason?.rawValue, result.asset?.assetTag,
            result.asset?.id.map(String.init), result.firstScan.map { "\($0)" }, result.auditId, result.scanId
        ]
    }

    @Test(
        "The same scan_id twice counts once and returns the same outcome",
        arguments: ["SG-1", "S1", "MY-1", "NOPE"])
    func retryCountsOnce(identifier: String) async throws {
        let (store, service, audit) = try await Self.running()
        let first = try await service.record(Self.request(identifier, audit, id: "scan-1"))
        let snapshot = try await store.snapshot()
        let retry = try await service.record(Self.request(identifier, audit, id: "scan-1", user: "mallory"))
        #expect(Self.outcome(retry) == Self.outcome(first))
        #expect(retry.progress == first.progress)
        #expect(try await store.snapshot() == snapshot, "a retry stores nothing")
        #expect(try await service.audit(id: audit).progress == first.progress)
    }

    @Test func aRetriedRepeatStillNamesTheFirstScan() async throws {
        let (store, service, audit) = try await Self.running()
        _ = try await service.record(Self.request("SG-1", audit, id: "a", user: "alice"))
        let repeatScan = try await service.record(Self.request("S1", audit, id: "b", user: "bob"))
        #expect(repeatScan.status == .alreadyScanned && repeatScan.firstScan?.user == "alice")
        let retry = try await service.record(Self.request("S1", audit, id: "b", user: "bob"))
        #expect(Self.outcome(retry) == Self.outcome(repeatScan))
        let scanned = try await service.details(auditID: audit, list: .scanned, query: ListQuery())
        #expect(scanned.items.map(\.scanCount) == [2], "two scans of SG-1, not three")
        #expect(try await store.count("scans") == 2)
    }

    @Test func aRetriedUnknownKeepsOneUnexpectedEntry() async throws {
        let (store, service, audit) = try await Self.running()
        _ = try await service.record(Self.request("NOPE", audit, id: "a"))
        _ = try await service.record(Self.request("NOPE", audit, id: "b"))
        _ = try await service.record(Self.request("NOPE", audit, id: "b"))
        let unexpected = try await service.details(auditID: audit, list: .unexpected, query: ListQuery())
        #expect(unexpected.items.map(\.scanCount) == [2])
        #expect(try await service.audit(id: audit).unexpectedCount == 1)
        #expect(try await store.count("scans") == 2)
    }

    @Test func theSameScanIDWithAnotherIdentifierIsRefused() async throws {
        let (store, service, audit) = try await Self.running()
        _ = try await service.record(Self.request("SG-1", audit, id: "scan-1"))
        let snapshot = try await store.snapshot()
        let error = await failure { _ = try await service.record(Self.request("SG-2", audit, id: "scan-1")) }
        #expect(error == .duplicate(field: "scan_id", value: "scan-1"))
        #expect(try await store.snapshot() == snapshot)
        #expect(try await service.audit(id: audit).scannedCount == 1)
    }

    @Test func aRetryAfterTheEndReturnsTheStoredOutcome() async throws {
        // An outbox may deliver a stored scan again after the audit ended: it was accepted, so
        // the retry must not be refused or counted.
        let (_, service, audit) = try await Self.running()
        let first = try await service.record(Self.request("SG-2", audit, id: "late"))
        _ = try await service.end(auditID: audit, by: alice)
        let retry = try await service.record(Self.request("SG-2", audit, id: "late"))
        #expect(Self.outcome(retry) == Self.outcome(first))
        // A new scan made after the end is refused (one made before it counts, late: LateScanTests).
        var madeAfter = Self.request("SG-1", audit, id: "new")
        madeAfter.scannedAt = Date().addingTimeInterval(LateScans.bound + 60)
        #expect(await failure { _ = try await service.record(madeAfter) } == .auditEnded(audit))
        #expect(try await service.audit(id: audit).lateScanCount == 0)
    }

    @Test func aRetryGivesBackTheSameAssetEntry() async throws {
        let (_, service, audit) = try await Self.running()
        let first = try await service.record(Self.request("S1", audit, id: "scan-1"))
        let retry = try await service.record(Self.request("S1", audit, id: "scan-1"))
        #expect(retry.asset == first.asset)
    }
}
