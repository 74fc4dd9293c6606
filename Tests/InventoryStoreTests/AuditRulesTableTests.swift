import AuditTestSupport
import AuditModel
import Foundation
import InventoryCore
import InventoryStore
import Testing
import TestKit

/// The rules of SPEC "Audit rules" as one table, run through the in-memory `AuditEngine`, and
/// through the server's audit service on a real SQLite file and on a real PostgreSQL
/// database: all must give exactly the listed outcome.
@Suite("Audit rules table")
struct AuditRulesTableTests {
    /// Plays the case's earlier scans, then the scan under test, and checks its outcome.
    @discardableResult
    static func run(_ rule: RuleCase, on harness: some RulesHarness) async throws -> Observed {
        for (index, identifier) in rule.before.enumerated() {
            _ = try await harness.scan(identifier, as: RulesFixture.priorScan(index))
        }
        let seen = try await harness.scan(rule.identifier, as: RulesFixture.finalScan)
        #expect(seen.status == rule.status)
        #expect(seen.reason == rule.reason)
        #expect(seen.assetTag == rule.assetTag)
        #expect(seen.firstScan == rule.firstScan.map(RulesFixture.priorScan))
        let total = RulesFixture.expectedTotal
        #expect(seen.progress == AuditProgress(totalAssets: total, scannedCount: rule.scanned, unexpectedCount: rule.unexpected))
        #expect(seen.progress.missingCount == total - rule.scanned)
        if let first = rule.firstScan.map(RulesFixture.priorScan) {
            // A repeat says who scanned it first, where and when.
            #expect(seen.message.contains(first.user))
            #expect(seen.message.contains(first.station))
            #expect(seen.message.contains(ISOTime.string(first.scannedAt)))
        }
        if rule.reason == .otherCountry { #expect(seen.message.contains("MY")) }
        return seen
    }

    @Test("AuditEngine follows the rule", arguments: RuleCase.all)
    func engine(_ rule: RuleCase) async throws {
        try await Self.run(rule, on: EngineHarness(caseSensitive: rule.caseSensitive))
    }

    /// Each case on a store also runs on the engine, and both give the same outcome, message and
    /// progress: one database per case and backend, not one to follow the rule and another to agree.
    @Test("The store's audit service follows the rule, with the engine's outcome, message and progress", arguments: Backend.allCases, RuleCase.all)
    func store(_ backend: Backend, _ rule: RuleCase) async throws {
        let store = try await StoreHarness.with(backend, caseSensitive: rule.caseSensitive) { try await Self.run(rule, on: $0) }
        let engine = try await Self.run(rule, on: EngineHarness(caseSensitive: rule.caseSensitive))
        #expect(engine == store)
    }

    @Test("Engine and store agree on every step of a long random run", arguments: Backend.allCases, [true, false])
    func randomRunsAgree(_ backend: Backend, caseSensitive: Bool) async throws {
        try await StoreHarness.with(backend, caseSensitive: caseSensitive) { store in
            try await Self.randomRun(caseSensitive: caseSensitive, store: store)
        }
    }

    static func randomRun(caseSensitive: Bool, store: StoreHarness) async throws {
        var random = SplitMix64(seed: caseSensitive ? 42 : 7)
        let pool = RulesFixture.identifierPool
        let engine = EngineHarness(caseSensitive: caseSensitive)
        var statuses: Set<ScanStatus> = []
        for step in 0..<300 {
            let identifier = pool[Int(random.next() % UInt64(pool.count))]
            let scan = FirstScan(
                scannedAt: RulesFixture.t0.addingTimeInterval(Double(step)),
                station: "kiosk-\(step % 3)", user: "user-\(step % 2)", source: .camera)
            let fromEngine = try engine.scan(identifier, as: scan)
            let fromStore = try await store.scan(identifier, as: scan)
            #expect(fromEngine == fromStore, "step \(step): \(identifier.debugDescription)")
            statuses.insert(fromStore.status)
            if fromEngine != fromStore { break }
        }
        #expect(statuses == [.foundExpected, .alreadyScanned, .unexpected, .unknown], "the run exercised every outcome a store gives")
    }
}
