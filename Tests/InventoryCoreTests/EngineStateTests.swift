import AuditModel
import Foundation
import InventoryCore
import Testing

/// The in-memory engine as a station keeps it: its counts as scans arrive, deciding without
/// recording, and reloading its state from stored rows.
@Suite("AuditEngine state")
struct EngineStateTests {
    static let expected = (1...5).map {
        AssetBrief(id: Int64($0), assetTag: "SG-\($0)", serialNum: "SN-\($0)", name: "Laptop \($0)", country: "SG")
    }
    static func scan(_ n: Int) -> FirstScan {
        FirstScan(scannedAt: Date(timeIntervalSince1970: 1_778_000_000 + Double(n)), station: "k\(n)", user: "u\(n)", source: .manual)
    }

    static func engine() -> AuditEngine {
        var engine = AuditEngine(auditID: "a1", country: "SG", expected: expected)
        engine.addKnown(AssetBrief(id: 10, assetTag: "MY-1", serialNum: "MY-SN", name: "Abroad", country: "MY"))
        engine.addKnown(AssetBrief(id: 11, assetTag: "SG-OLD", name: "Old", status: .archived, country: "SG"))
        return engine
    }

    @Test func countsFollowEveryScan() {
        var engine = Self.engine()
        #expect(engine.progress == AuditProgress(totalAssets: 5, scannedCount: 0, unexpectedCount: 0))
        let steps: [(String, Int, Int)] = [
            ("SG-1", 1, 0), ("SN-1", 1, 0), ("SG-2", 2, 0), ("MY-1", 2, 1), ("MY-SN", 2, 1), ("SG-OLD", 2, 2),
            ("GHOST", 2, 3), ("GHOST", 2, 3), ("ghost", 2, 4), ("SN-5", 3, 4), ("SG-3", 4, 4), ("SG-4", 5, 4)
        ]
        for (n, (identifier, scanned, unexpected)) in steps.enumerated() {
            engine.scan(identifier, Self.scan(n))
            #expect(engine.progress == AuditProgress(totalAssets: 5, scannedCount: scanned, unexpectedCount: unexpected), "after \(identifier)")
        }
        #expect(engine.progress.missingCount == 0 && engine.progress.completionPercentage == 100)
    }

    @Test func decideChangesNothing() {
        var engine = Self.engine()
        #expect(engine.decide("SG-1").status == .foundExpected)
        #expect(engine.decide("SG-1").status == .foundExpected)
        #expect(engine.progress.scannedCount == 0)
        let decision = engine.decide("SG-1")
        engine.apply(decision, scan: Self.scan(1))
        let repeated = engine.decide("SN-1")
        #expect(repeated.status == .alreadyScanned && repeated.asset == Self.expected[0] && repeated.reason == nil)
        #expect(repeated.firstScan == Self.scan(1) && repeated.unexpectedKey == nil && !repeated.addsScanned)
    }

    @Test func theFirstScanIsKeptNotTheLatest() {
        var engine = Self.engine()
        engine.scan("SG-2", Self.scan(1))
        engine.scan("SG-2", Self.scan(2))
        engine.scan("SN-2", Self.scan(3))
        #expect(engine.decide("SG-2").firstScan == Self.scan(1))
        engine.scan("MY-1", Self.scan(4))
        engine.scan("MY-SN", Self.scan(5))
        #expect(engine.decide("MY-1").firstScan == Self.scan(4))
    }

    @Test func stateReloadedFromRowsGivesTheSameAnswers() {
        var live = Self.engine()
        live.scan("SG-3", Self.scan(1))
        live.scan("MY-1", Self.scan(2))
        live.scan("GHOST", Self.scan(3))
        var reloaded = Self.engine()
        reloaded.markScanned(assetID: 3, Self.scan(1))
        reloaded.markUnexpected(key: AuditRules.unexpectedKey(assetID: 10), Self.scan(2))
        reloaded.markUnexpected(key: AuditRules.unexpectedKey(identifier: "GHOST"), Self.scan(3))
        #expect(reloaded.progress == live.progress)
        for identifier in ["SG-3", "SN-3", "MY-SN", "GHOST", "SG-1", "NEW"] {
            #expect(reloaded.decide(identifier) == live.decide(identifier), "\(identifier)")
        }
    }

    @Test func aTagWinsOverAnotherAssetsSerial() {
        // SG-1's serial is the tag of SG-2: the tag match is the one reported.
        let expected = [
            AssetBrief(id: 1, assetTag: "SG-1", serialNum: "SG-2", name: "One", country: "SG"),
            AssetBrief(id: 2, assetTag: "SG-2", name: "Two", country: "SG")
        ]
        let engine = AuditEngine(auditID: "a", country: "SG", expected: expected)
        #expect(engine.decide("SG-2").asset?.id == 2)
    }

    @Test func messagesNameTheAssetAndTheReason() {
        var engine = Self.engine()
        let found = engine.scan("SG-1", Self.scan(1))
        #expect(AuditRules.message(for: found, identifier: "SG-1", auditCountry: "SG").contains("SG-1 (Laptop 1)"))
        let abroad = engine.scan("MY-SN", Self.scan(2))
        #expect(AuditRules.message(for: abroad, identifier: "MY-SN", auditCountry: "SG").contains("registered in MY, not SG"))
        let old = engine.scan("SG-OLD", Self.scan(3))
        #expect(AuditRules.message(for: old, identifier: "SG-OLD", auditCountry: "SG").contains("ARCHIVED"))
        let ghost = engine.scan("GHOST", Self.scan(4))
        #expect(AuditRules.message(for: ghost, identifier: "GHOST", auditCountry: "SG").contains("'GHOST'"))
        let again = engine.scan("SN-1", Self.scan(5))
        let text = AuditRules.message(for: again, identifier: "SN-1", auditCountry: "SG")
        #expect(text.contains("first scanned by u1 at k1, \(ISOTime.string(Self.scan(1).scannedAt))"))
    }
}
