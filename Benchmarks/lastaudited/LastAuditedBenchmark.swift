import Foundation
import GRDB
import InventoryCore
import InventoryStore
import PostgresStore

// `assets list --not-audited-since 180d` over N assets (1,000,000 by default), through the asset
// service as the CLI and the API call it, on SQLite or PostgreSQL. 30% of the assets were never
// found by an audit, the rest last found 0 to 729 days ago (evenly), so about 75% of them match
// 180d. After the bulk load it runs VACUUM ANALYZE on PostgreSQL (as autovacuum would on a
// server in use: it sets the visibility map, which lets a count read the index alone) and
// ANALYZE on SQLite. The list reads the expression index `assets_last_audited` (never found
// first, then the oldest); it prints the median of 7 runs of: the first page, a page deep in the
// list, and a page of one country. Then it ends an audit of the country's assets that found 95%
// of them: the end itself, the same list while the found assets' last_audited_at are pending,
// and the catch-up that writes them after the end, a batch a transaction (with the longest
// batch: the longest a scan waits for the write lock). `--whole` writes them in one transaction
// instead, as the end did before inside its own.
//
//   swift build -c release --package-path Benchmarks --product last-audited-benchmark
//   Benchmarks/.build/release/last-audited-benchmark [--assets N] [--postgres URL] [--whole]

struct Options {
    var assets = 1_000_000
    var postgres: String?
    var whole = false

    init() {
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--assets": assets = Int(arguments.next() ?? "") ?? assets
            case "--postgres": postgres = arguments.next()
            case "--whole": whole = true
            default:
                FileHandle.standardError.write(Data("unknown argument \(argument); use --assets N [--postgres URL] [--whole]\n".utf8))
                exit(2)
            }
        }
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The median time of `runs` runs of `body`, in milliseconds.
func median(_ runs: Int = 7, _ body: @Sendable () async throws -> Void) async throws -> Double {
    let clock = ContinuousClock()
    var times: [Double] = []
    for _ in 0..<runs {
        let start = clock.now
        try await body()
        times.append(seconds(clock.now - start) * 1000)
    }
    return times.sorted()[runs / 2]
}

/// The SQL of one back end that fills the assets and an audit's found scans.
struct Fill: Sendable {
    var numbers: @Sendable (Int) -> String
    var daysAgo: @Sendable (String) -> String
    var now: String
    var userColumn: String
    var no: String

    func assets(_ n: Int) -> String {
        """
        INSERT INTO assets (asset_tag, name, status, country, location, is_erased, has_keyboard, has_charger, created_at, updated_at,
            last_audited_at)
        SELECT 'LA-' || i, 'Laptop ' || i, 'IN_STOCK', CASE WHEN i % 4 = 0 THEN 'MY' ELSE 'SG' END, 'Dock ' || (i % 50), \(no), \(no), \(no),
            \(now), \(now), CASE WHEN i % 10 < 3 THEN NULL ELSE \(daysAgo("(i % 730)")) END
        FROM \(numbers(n))
        """
    }

    func found(_ audit: String) -> [String] {
        [
            """
            INSERT INTO scans (scan_id, audit_id, identifier, asset_id, status, message, source, station, \(userColumn), scanned_at, recorded_at)
            SELECT 'la-' || e.asset_id, e.audit_id, e.asset_tag, e.asset_id, 'found_expected', 'Found', 'camera', 'bench', 'bench', \(now), \(now)
            FROM audit_expected e WHERE e.audit_id = '\(audit)' AND e.asset_id % 20 <> 1
            """,
            """
            UPDATE audit_expected SET first_scan_id = s.id, scan_count = 1 FROM scans s
            WHERE audit_expected.audit_id = '\(audit)' AND s.audit_id = audit_expected.audit_id AND s.asset_id = audit_expected.asset_id
            """,
            "ANALYZE"
        ]
    }
}

/// The catch-up of one back end: writes one batch of `size` assets (all of them when nil),
/// and says whether any remain.
typealias CatchUp = @Sendable (_ size: Int?) async throws -> Bool

func run(
    assets: any AssetService, audits: any AuditService, execute: @Sendable (String) async throws -> Void, fill: Fill, n: Int,
    vacuum: Bool, whole: Bool, catchUp: CatchUp
) async throws {
    let clock = ContinuousClock()
    var start = clock.now
    try await execute(fill.assets(n))
    try await execute(vacuum ? "VACUUM ANALYZE" : "ANALYZE")
    print(String(format: "setup: %d assets in %.1f s", n, seconds(clock.now - start)))
    let since = try AuditAge.cutoff("180d")
    let filter = AssetFilter(notAuditedSince: since)
    let first = try await assets.list(filter, query: ListQuery(page: 1, perPage: 20))
    print("not audited since 180d: \(first.pagination.total) of \(n) assets")
    let lastPage = first.pagination.lastPage
    let firstPage = try await median { _ = try await assets.list(filter, query: ListQuery(page: 1, perPage: 20)) }
    let deepPage = try await median { _ = try await assets.list(filter, query: ListQuery(page: lastPage / 2, perPage: 20)) }
    let country = try await median {
        _ = try await assets.list(AssetFilter(country: "MY", notAuditedSince: since), query: ListQuery(page: 1, perPage: 20))
    }
    print(String(format: "list --not-audited-since 180d, page 1 of 20 (with the total): %.1f ms", firstPage))
    print(String(format: "the same, page %d: %.1f ms", lastPage / 2, deepPage))
    print(String(format: "the same with --country MY, page 1: %.1f ms", country))

    let actor = Actor(user: "bench", station: "bench")
    let audit = try await audits.start(country: "SG", by: actor)
    for sql in fill.found(audit.id) { try await execute(sql) }
    start = clock.now
    _ = try await audits.end(auditID: audit.id, by: actor)
    print(String(format: "end of an audit of %d assets, 95%% found: %.2f s", audit.totalAssets, seconds(clock.now - start)))
    let pending = try await median(3) { _ = try await assets.list(filter, query: ListQuery(page: 1, perPage: 20)) }
    print(String(format: "list --not-audited-since 180d, page 1 of 20, while pending: %.1f ms", pending))
    start = clock.now
    var batches = 0
    var longest = 0.0
    while true {
        let batchStart = clock.now
        let more = try await catchUp(whole ? Int.max : nil)
        longest = max(longest, seconds(clock.now - batchStart))
        batches += 1
        if !more { break }
    }
    print(
        String(
            format: "last_audited_at written after the end: %.2f s in %d transaction(s), the longest %.0f ms", seconds(clock.now - start), batches,
            longest * 1000))
    let after = try await assets.list(filter, query: ListQuery(page: 1, perPage: 20))
    print("not audited since 180d after it: \(after.pagination.total) of \(n) assets")
    let firstAfter = try await median { _ = try await assets.list(filter, query: ListQuery(page: 1, perPage: 20)) }
    print(String(format: "list --not-audited-since 180d, page 1 of 20 (with the total), after it: %.1f ms", firstAfter))
}

@main
struct LastAuditedBenchmark {
    static func main() async throws {
        try await measure(Options())
    }

    /// Off the main actor, as the services run in the server.
    static func measure(_ options: Options) async throws {
        if let url = options.postgres {
            let database = try await PostgresDatabase.open(try PostgresURL(url))
            try await database.whileRunning {
                let fill = Fill(
                    numbers: { "generate_series(1, \($0)) AS n(i)" }, daysAgo: { "now() - make_interval(days => \($0))" }, now: "now()",
                    userColumn: "user_name", no: "false")
                let audits = PostgresAuditService(database: database, lastAuditedCatchUp: false)
                try await run(
                    assets: PostgresAssetService(database: database), audits: audits,
                    execute: { try await database.execute($0) }, fill: fill, n: options.assets, vacuum: true, whole: options.whole,
                    catchUp: { try await audits.catchUpLastAudited(batch: $0, batches: 1) })
            }
        } else {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("last-audited-bench-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let database = try AppDatabase(path: folder.appendingPathComponent("bench.sqlite").path)
            let fill = Fill(
                numbers: { "(WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \($0)) SELECT i FROM n)" },
                daysAgo: { "strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || \($0) || ' days')" }, now: "strftime('%Y-%m-%d %H:%M:%f', 'now')",
                userColumn: "user", no: "0")
            let audits = SQLiteAuditService(database: database, lastAuditedCatchUp: false)
            try await run(
                assets: SQLiteAssetService(database: database), audits: audits,
                execute: { sql in try await database.writer.write { try $0.execute(sql: sql) } }, fill: fill, n: options.assets, vacuum: false,
                whole: options.whole, catchUp: { try await audits.catchUpLastAudited(batch: $0, batches: 1) })
        }
    }
}
