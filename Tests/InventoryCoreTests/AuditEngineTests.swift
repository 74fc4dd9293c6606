import AuditModel
import Foundation
import InventoryCore
import Testing

@Suite struct AuditEngineTests {
    static let expected = [
        AssetBrief(id: 1, assetTag: "SG-1", serialNum: "S1", name: "One", country: "SG"),
        AssetBrief(id: 2, assetTag: "SG-2", serialNum: "SG-1X", name: "Two", country: "SG")
    ]
    let scan = FirstScan(scannedAt: Date(timeIntervalSince1970: 1_800_000_000), station: "k1", user: "ann", source: .camera)

    @Test func outcomesFollowTheRules() {
        var engine = AuditEngine(auditID: "a", country: "SG", expected: Self.expected)
        engine.addKnown(AssetBrief(id: 9, assetTag: "MY-9", name: "Nine", country: "MY"))
        #expect(engine.scan("SG-1", scan).status == .foundExpected)
        let repeated = engine.scan("S1", scan)
        #expect(repeated.status == .alreadyScanned, "the serial number is the same asset")
        #expect(repeated.firstScan == scan)
        #expect(engine.scan("MY-9", scan).reason == .otherCountry)
        #expect(engine.scan("nope", scan).status == .unknown)
        #expect(engine.scan("nope", scan).addsUnexpected == false, "a repeat does not count again")
        #expect(engine.progress == AuditProgress(totalAssets: 2, scannedCount: 1, unexpectedCount: 2))
    }

    @Test func caseInsensitiveMatchingWhenConfigured() {
        let strict = AuditEngine(auditID: "a", country: "SG", expected: Self.expected)
        let loose = AuditEngine(auditID: "a", country: "SG", expected: Self.expected, caseSensitive: false)
        #expect(strict.decide("sg-2").status == .unknown)
        #expect(loose.decide("sg-2").status == .foundExpected)
    }
}
