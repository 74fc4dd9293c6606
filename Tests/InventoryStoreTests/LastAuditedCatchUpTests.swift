import AuditTestSupport
import Foundation
import GRDB
import InventoryCore
@testable import InventoryStore
import PostgresStore
import Testing

/// `last_audited_at` after the end of an audit: the end marks the audit pending, and its times
/// are written afterwards, a batch a transaction. Every read must give the exact times before,
/// between and after the batches, and a catch-up stopped midway must be finished by the next
/// process, on both back ends.
@Suite("Last audited times written after the end")
struct LastAuditedCatchUpTests {
    /// A back end whose end of an audit writes nothing by itself: the test runs the batches.
    struct Stores {
        let audits: any AuditService
        let assets: any AssetService
        /// Up to `batches` batches (all when nil) of `batch` scans; whether any audit is left pending.
        let catchUp: @Sendable (_ batch: Int, _ batches: Int?) async throws -> Bool
        let pending: @Sendable () async throws -> Bool
        /// The back end as a new process makes it, which finishes what is pending on its own.
        let reopen: @Sendable () async throws -> Void
        let close: @Sendable () async -> Void

        static func make(_ backend: Backend) async throws -> Stores {
            switch backend {
            case .sqlite:
                let path = TestServer.temporaryPath()
                let database = try AppDatabase(path: path)
                let audits = SQLiteAuditService(database: database, lastAuditedCatchUp: false)
                return Stores(
                    audits: audits, assets: SQLiteAssetService(database: database),
                    catchUp: { try await audits.catchUpLastAudited(batch: $0, batches: $1) }, pending: { try await audits.lastAuditedPending() },
                    reopen: { _ = ServerBackend.sqlite(try AppDatabase(path: path)) }, close: {})
            case .postgres:
                let (database, close) = try await PostgresCluster.openNewDatabase()
                let audits = PostgresAuditService(database: database, lastAuditedCatchUp: false)
                return Stores(
                    audits: audits, assets: PostgresAssetService(database: database),
                    catchUp: { try await audits.catchUpLastAudited(batch: $0, batches: $1) }, pending: { try await audits.lastAuditedPending() },
                    reopen: { _ = ServerBackend.postgres(database) }, close: close)
            }
        }
    }

    static let actor = Actor(user: "lead", station: "test")
    /// Whole seconds, so both back ends give the times back exactly.
    static let base = (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 - 20_000
    static func at(_ minute: Int) -> Date { Date(timeIntervalSince1970: base + Double(minute) * 60) }

    /// The assets, by tag: A01…A12 in SG, M1 in MY, in id order.
    static func seed(_ stores: Stores) async throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        for tag in (1...12).map({ String(format: "A%02d", $0) }) + ["M1"] {
            let asset = try await stores.assets.create(AssetInput(assetTag: tag, name: "Laptop \(tag)", country: tag == "M1" ? "MY" : "SG"))
            ids[tag] = asset.id
        }
        return ids
    }

    static func scan(_ stores: Stores, _ tag: String, audit: AuditID, at minute: Int, id: String? = nil) async throws {
        _ = try await stores.audits.record(ScanRequest(identifier: tag, auditId: audit, scanId: id, scannedAt: at(minute)))
    }

    /// Every read of the times: one asset, the plain list, and `not_audited_since` at several
    /// cutoffs (all, a page, a country), each against `expected` (nil: never found).
    static func check(_ stores: Stores, _ expected: [String: Date?], ids: [String: Int64], _ note: String) async throws {
        for (tag, time) in expected.sorted(by: { $0.key < $1.key }) {
            let id = try #require(ids[tag])
            #expect(try await stores.assets.get(id: id).lastAuditedAt == time, "\(note): \(tag) read alone")
        }
        let all = try await stores.assets.list(AssetFilter(), query: ListQuery(perPage: 100))
        for asset in all.items { #expect(asset.lastAuditedAt == expected[asset.assetTag] ?? nil, "\(note): \(asset.assetTag) in the list") }
        let found = try await stores.assets.find(identifier: "A02")
        #expect(found?.lastAuditedAt == expected["A02"] ?? nil, "\(note): A02 found by its tag")

        for minute in [0, 3, 6, 30, 60, 200, 100_000] {
            let cutoff = at(minute)
            let order = expected.filter { $0.value.map { $0 < cutoff } ?? true }
                .sorted { ($0.value ?? .distantPast, ids[$0.key] ?? 0) < ($1.value ?? .distantPast, ids[$1.key] ?? 0) }
            let want = order.map(\.key)
            let listed = try await stores.assets.list(AssetFilter(notAuditedSince: cutoff), query: ListQuery(perPage: 100))
            #expect(listed.items.map(\.assetTag) == want, "\(note): not audited since minute \(minute)")
            #expect(listed.pagination.total == want.count, "\(note): the total since minute \(minute)")
            for asset in listed.items { #expect(asset.lastAuditedAt == expected[asset.assetTag] ?? nil, "\(note): \(asset.assetTag) listed") }
            let page = try await stores.assets.list(AssetFilter(notAuditedSince: cutoff), query: ListQuery(page: 2, perPage: 3))
            #expect(page.items.map(\.assetTag) == Array(want.dropFirst(3).prefix(3)), "\(note): page 2 since minute \(minute)")
            let country = try await stores.assets.list(AssetFilter(country: "SG", notAuditedSince: cutoff), query: ListQuery(perPage: 100))
            #expect(country.items.map(\.assetTag) == want.filter { $0 != "M1" }, "\(note): SG not audited since minute \(minute)")
        }
    }

    /// An audit of SG whose times are pending: what it and an earlier audit found, as expected.
    static func endedAudit(_ stores: Stores) async throws -> (audit: AuditID, expected: [String: Date?]) {
        // An earlier audit found A03 later than the next one will: its time must stay.
        let earlier = try await stores.audits.start(country: "SG", by: actor)
        try await scan(stores, "A03", audit: earlier.id, at: 100)
        _ = try await stores.audits.end(auditID: earlier.id, by: actor)
        #expect(try await stores.catchUp(100, nil) == false)

        let audit = try await stores.audits.start(country: "SG", by: actor)
        for n in 1...10 { try await scan(stores, String(format: "A%02d", n), audit: audit.id, at: n, id: "s\(n)") }
        try await scan(stores, "A02", audit: audit.id, at: 50) // found again later: the last one counts
        try await scan(stores, "M1", audit: audit.id, at: 5) // unexpected: not where this audit looked
        _ = try await stores.audits.void(VoidRequest(scanId: "s4", auditId: audit.id)) // A04's only scan
        _ = try await stores.audits.end(auditID: audit.id, by: actor)
        var expected: [String: Date?] = ["A01": at(1), "A02": at(50), "A03": at(100), "A04": nil, "A11": nil, "A12": nil, "M1": nil]
        for n in 5...10 { expected[String(format: "A%02d", n)] = at(n) }
        return (audit.id, expected)
    }

    @Test("Before, between and after the batches every read gives the exact times; a late scan meanwhile counts", arguments: Backend.allCases)
    func readsMergeWhatIsPending(_ backend: Backend) async throws {
        let stores = try await Stores.make(backend)
        defer { Task { await stores.close() } }
        let ids = try await Self.seed(stores)
        let (audit, ended) = try await Self.endedAudit(stores)
        var expected = ended
        #expect(try await stores.pending(), "the end writes no time itself")
        try await Self.check(stores, expected, ids: ids, "nothing written yet")

        #expect(try await stores.catchUp(3, 1), "one batch of three scans leaves the rest")
        try await Self.check(stores, expected, ids: ids, "one batch written")

        // A scan made before the end that arrives after it (late) counts at once.
        try await Self.scan(stores, "A11", audit: audit, at: 7)
        expected["A11"] = Self.at(7)
        try await Self.check(stores, expected, ids: ids, "a late scan while pending")

        #expect(try await stores.catchUp(3, 2))
        try await Self.check(stores, expected, ids: ids, "three batches written")
        #expect(try await stores.catchUp(3, nil) == false)
        #expect(try await stores.pending() == false)
        try await Self.check(stores, expected, ids: ids, "all written")
        #expect(try await stores.catchUp(3, nil) == false, "a second catch-up finds nothing to do")
    }

    @Test("A catch-up stopped midway leaves the audit pending, and the next process finishes it", arguments: Backend.allCases)
    func nextProcessFinishes(_ backend: Backend) async throws {
        let stores = try await Stores.make(backend)
        defer { Task { await stores.close() } }
        let ids = try await Self.seed(stores)
        let (_, expected) = try await Self.endedAudit(stores)
        #expect(try await stores.catchUp(2, 2), "stopped after two batches")
        try await Self.check(stores, expected, ids: ids, "stopped midway")

        try await stores.reopen()
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while try await stores.pending(), clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(try await stores.pending() == false, "the reopened back end finished the catch-up")
        try await Self.check(stores, expected, ids: ids, "finished by the next process")
    }
}

/// The plans SQLite makes for the pending times: each asset's scans in a pending audit are one
/// lookup of `scans_expected_asset` by audit and asset. Left to itself SQLite scanned that whole
/// index, or a range of it from the cursor, for every asset (155 s and 290 s for one page over
/// 40,000 assets, where the lookup takes 47 ms); a small test would not notice.
@Suite("The plans of pending last audited times")
struct LastAuditedPlanTests {
    @Test("Reading an asset and listing not_audited_since look up each asset's pending scans by audit and asset")
    func lookups() async throws {
        let database = try AppDatabase(path: TestServer.temporaryPath())
        let plans = try await database.writer.write { db in
            try db.execute(sql: "INSERT INTO audits (id, country, total_assets, started_at, started_by) VALUES ('a1', 'SG', 0, '2026-01-01', 'x')")
            try db.execute(sql: "INSERT INTO last_audited_pending (audit_id, after_asset_id) VALUES ('a1', 10)")
            let notSince = try LastAudited.notSince(db, cutoff: Date())
            return try [
                "SELECT assets.*, \(LastAudited.pendingColumn) FROM assets WHERE id = 1",
                "SELECT assets.id FROM assets INDEXED BY assets_last_audited WHERE \(notSince.clause)\(notSince.order) LIMIT 20"
            ].map { sql in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: sql.contains("?") ? notSince.arguments : [])
                    .map { $0["detail"] as String }
            }
        }
        for plan in plans {
            let scans = plan.filter { $0.contains("scans") || $0.hasPrefix("SCAN s") || $0.hasPrefix("SEARCH s") }
            #expect(!scans.isEmpty, "\(plan)")
            #expect(scans.allSatisfy { $0.contains("(audit_id=? AND asset_id=?)") }, "\(plan)")
        }
    }
}
