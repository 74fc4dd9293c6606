import AuditModel
import Foundation
import InventoryCore
import InventoryStore
import Testing

/// Case-insensitive matching beyond plain ASCII tags: the engine and the store must still agree.
@Suite("Case-insensitive matching edge cases")
struct CaseFoldingTests {
    static func outcomes(tags: [String], scanning identifier: String) async throws -> (engine: ScanDecision, store: ScanResult) {
        let store = try TemporaryStore()
        var briefs: [AssetBrief] = []
        for tag in tags { briefs.append(try await store.addAsset(tag, name: "Asset \(tag)").brief) }
        let audit = try await store.audits(caseSensitive: false).start(country: "SG", by: alice)
        var engine = AuditEngine(auditID: audit.id, country: "SG", expected: briefs, caseSensitive: false)
        let decision = engine.scan(identifier, RulesFixture.finalScan)
        let result = try await store.audits(caseSensitive: false).record(ScanRequest(identifier: identifier, auditId: audit.id))
        return (decision, result)
    }

    @Test func accentedLettersDoNotFoldInEitherImplementation() async throws {
        // Only ASCII letters fold (as SQLite's NOCASE does), in the engine and the store alike.
        let (engine, store) = try await Self.outcomes(tags: ["ÉCRAN-1"], scanning: "écran-1")
        #expect(engine.status == .unknown)
        #expect(store.status == engine.status)
        #expect(store.asset?.assetTag == engine.asset?.assetTag)
    }

    @Test func asciiTagsMatchInAnyCase() async throws {
        let (engine, store) = try await Self.outcomes(tags: ["SCREEN-1"], scanning: "screen-1")
        #expect(engine.status == .foundExpected && store.status == .foundExpected)
        #expect(engine.asset?.assetTag == "SCREEN-1" && store.asset?.assetTag == "SCREEN-1")
    }

    @Test func tagsThatDifferOnlyInCaseResolveToTheSameAsset() async throws {
        // Tags are unique case-sensitively, so both may exist; a case-insensitive station must
        // then pick the same one in both implementations (the exact match, ideally).
        let (engine, store) = try await Self.outcomes(tags: ["ab-1", "AB-1"], scanning: "ab-1")
        #expect(store.status == .foundExpected && engine.status == .foundExpected)
        #expect(engine.asset?.assetTag == store.asset?.assetTag)
        #expect(engine.asset?.assetTag == "ab-1", "the exact match wins")
    }
}
