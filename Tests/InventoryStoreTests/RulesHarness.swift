import AuditTestSupport
import AuditModel
import Foundation
import TestKit
import InventoryCore
import InventoryStore

/// What one scan produced, in the terms both implementations share.
struct Observed: Equatable, Sendable {
    var status: ScanStatus
    var reason: UnexpectedReason?
    var assetTag: String?
    var firstScan: FirstScan?
    var message: String
    var progress: AuditProgress
}

/// One implementation of the audit rules, set up on `RulesFixture`.
protocol RulesHarness: AnyObject {
    func scan(_ identifier: String, as scan: FirstScan) async throws -> Observed
}

/// The in-memory engine, used as a connected station uses it: identifiers are normalised
/// first, the expected set is loaded, and the other assets are made known.
final class EngineHarness: RulesHarness {
    private var engine: AuditEngine

    init(caseSensitive: Bool) {
        let all = RulesFixture.before + RulesFixture.after
        let briefs = all.enumerated().map { index, item in
            AssetBrief(
                id: Int64(index + 1), assetTag: item.tag, serialNum: item.serial, name: "Asset \(item.tag)",
                status: item.status, country: item.country)
        }
        let expected = briefs.prefix(RulesFixture.before.count)
            .filter { $0.country == RulesFixture.country && !$0.status.isRetired }
        engine = AuditEngine(
            auditID: "engine-audit", country: RulesFixture.country, expected: Array(expected),
            caseSensitive: caseSensitive)
        for brief in briefs where !expected.contains(brief) { engine.addKnown(brief) }
    }

    func scan(_ identifier: String, as scan: FirstScan) throws -> Observed {
        let normalized = try Identifier.normalize(identifier)
        let decision = engine.scan(normalized, scan)
        return Observed(
            status: decision.status, reason: decision.reason, assetTag: decision.asset?.assetTag,
            firstScan: decision.firstScan,
            message: AuditRules.message(for: decision, identifier: normalized, auditCountry: engine.country),
            progress: engine.progress)
    }
}

/// A server back end (a temporary SQLite file, or a new PostgreSQL database): the fixture is
/// registered, the audit started, and the late assets registered after the start. Assets are
/// registered with exact tags, as the SQLite store's own tests do; only matching follows
/// `caseSensitive`.
final class StoreHarness: RulesHarness {
    let service: any ServerAuditService
    let auditID: AuditID
    /// Closes the back end; call it when the test is done.
    let close: @Sendable () async -> Void

    init(_ backend: Backend = .sqlite, caseSensitive: Bool) async throws {
        let (matching, exact, close) = try await backend.makePair(caseSensitive: caseSensitive)
        self.close = close
        service = matching.audits
        do {
            for item in RulesFixture.before { _ = try await exact.assets.create(RulesFixture.input(item)) }
            auditID = try await service.start(country: RulesFixture.country, by: alice).id
            for item in RulesFixture.after { _ = try await exact.assets.create(RulesFixture.input(item)) }
        } catch {
            await close()
            throw error
        }
    }

    /// Runs `body` with a harness on `backend`, closing it after.
    @discardableResult
    static func with<T>(_ backend: Backend, caseSensitive: Bool, _ body: (StoreHarness) async throws -> T) async throws -> T {
        let harness = try await StoreHarness(backend, caseSensitive: caseSensitive)
        return try await withCleanup({ try await body(harness) }, cleanup: { await harness.close() })
    }

    func scan(_ identifier: String, as scan: FirstScan) async throws -> Observed {
        let result = try await service.record(
            ScanRequest(
                identifier: identifier, auditId: auditID, source: scan.source, scannedAt: scan.scannedAt,
                deviceName: scan.station, user: scan.user))
        return Observed(
            status: result.status, reason: result.reason, assetTag: result.asset?.assetTag,
            firstScan: result.firstScan, message: result.message, progress: result.progress)
    }
}
