import Foundation
import GRDB
import InventoryCore
import InventoryStore
import PostgresStore

// Reconciling an ended audit of N expected assets (1,000,000 by default) with N/10 changes:
// 4% misplaced (moved), 5% missing (marked MISSING), and 1% more unknown tags (registered).
// The audit's state is written with set-based SQL (as N scans through the service would leave
// it, without taking an hour to scan); then the service previews, applies, and applies again
// (which must change nothing). Each step prints its time and the process's peak RSS during the
// step (VmHWM, reset before each step through /proc/self/clear_refs).
//
//   swift build -c release --package-path Benchmarks --product reconcile-benchmark
//   Benchmarks/.build/release/reconcile-benchmark [--assets N] [--postgres URL]
//
// Without --postgres it runs on a fresh SQLite file in a temporary folder. With it, on the
// PostgreSQL database at URL (a fresh one: Benchmarks/postgres/cluster.sh makes one); the RSS
// is then this client's, not the PostgreSQL server's.

struct Options {
    var assets = 1_000_000
    var postgres: String?

    init() {
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--assets": assets = Int(arguments.next() ?? "") ?? assets
            case "--postgres": postgres = arguments.next()
            default: fatalError("unknown argument \(argument); use --assets N [--postgres URL]")
            }
        }
    }
}

/// The peak resident set since the last reset, in MiB (Linux's VmHWM).
func peakMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return -1 }
    return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? -1) / 1024
}

/// Resets VmHWM to the current RSS, so the next reading is the peak of the next step.
func resetPeak() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

func measure<T>(_ label: String, _ body: () async throws -> T) async throws -> T {
    resetPeak()
    let clock = ContinuousClock()
    let start = clock.now
    let value = try await body()
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(String(format: "%@: %.2f s, peak RSS %.0f MiB", label, seconds, peakMiB()))
    FileHandle.standardOutput.synchronizeFile()
    return value
}

/// The SQL that fills a database with the audit's state: `numbers(n)` is a set of rows 1…n
/// named `i`, `now` the current time, `user` the scans' user column.
struct Dialect: Sendable {
    var numbers: @Sendable (Int) -> String
    var now: String
    var userColumn: String
    var falseValue: String
}

func populate(_ execute: (String) async throws -> Void, dialect d: Dialect, assets n: Int, start: () async throws -> AuditID) async throws
    -> AuditID
{
    try await execute(
        """
        INSERT INTO assets (asset_tag, serial_num, name, status, country, location, is_erased, has_keyboard, has_charger, created_at, updated_at)
        SELECT 'SG-' || i, 'SN-' || i, 'Laptop ' || i, 'IN_STOCK', 'SG', 'Dock ' || (i % 50), \(d.falseValue), \(d.falseValue),
            \(d.falseValue), \(d.now), \(d.now)
        FROM \(d.numbers(n))
        """)
    let audit = try await start()
    // 95% found, 4% of all at a location other than their own; 5% missing.
    try await execute(
        """
        INSERT INTO scans (scan_id, audit_id, identifier, asset_id, status, message, source, station, \(d.userColumn), scanned_at,
            recorded_at, location)
        SELECT 'scan-' || e.asset_id, e.audit_id, e.asset_tag, e.asset_id, 'found_expected', 'Found', 'camera', 'bench', 'bench',
            \(d.now), \(d.now), CASE WHEN e.asset_id % 25 = 0 THEN 'Dock X' ELSE e.location END
        FROM audit_expected e WHERE e.audit_id = '\(audit)' AND e.asset_id % 20 <> 1
        """)
    try await execute(
        """
        UPDATE audit_expected SET first_scan_id = s.id, scan_count = 1 FROM scans s
        WHERE audit_expected.audit_id = '\(audit)' AND s.audit_id = audit_expected.audit_id AND s.asset_id = audit_expected.asset_id
            AND s.entry_key IS NULL
        """)
    // Unknown tags: 1% of the inventory's size.
    try await execute(
        """
        INSERT INTO scans (scan_id, audit_id, identifier, status, reason, message, source, station, \(d.userColumn), scanned_at,
            recorded_at, location, entry_key)
        SELECT 'ghost-' || i, '\(audit)', 'GHOST-' || i, 'unknown', 'unknown', 'Unknown', 'camera', 'bench', 'bench', \(d.now), \(d.now),
            'Dock ' || (i % 50), 'id:GHOST-' || i
        FROM \(d.numbers(n / 100))
        """)
    try await execute(
        """
        INSERT INTO audit_unexpected (audit_id, key, identifier, reason, first_scan_id, scan_count)
        SELECT audit_id, entry_key, identifier, 'unknown', id, 1 FROM scans WHERE audit_id = '\(audit)' AND entry_key IS NOT NULL
        """)
    try await execute(
        """
        UPDATE audits SET scanned_count = (SELECT count(*) FROM audit_expected WHERE audit_id = '\(audit)' AND first_scan_id IS NOT NULL),
            unexpected_count = \(n / 100) WHERE id = '\(audit)'
        """)
    // Statistics, as a database in use has them (PostgreSQL's autovacuum would take them soon).
    try await execute("ANALYZE")
    return audit
}

func reconcileSteps(_ audits: any AuditService, audit: AuditID, assets: Int) async throws {
    let actor = Actor(user: "bench", station: "bench")
    _ = try await measure("end of the audit") { try await audits.end(auditID: audit, by: actor) }
    let all = Set(ReconcileAction.allCases)
    let preview = try await measure("preview (\(assets) assets)") {
        try await audits.reconcile(ReconcileRequest(auditId: audit, actions: all, preview: true, user: "bench"))
    }
    print("  preview: \(preview.total) changes \(preview.counts)")
    let applied = try await measure("apply (\(assets) assets)") {
        try await audits.reconcile(ReconcileRequest(auditId: audit, actions: all, preview: false, user: "bench"))
    }
    print("  applied: \(applied.total) changes \(applied.counts)")
    let again = try await measure("second run") {
        try await audits.reconcile(ReconcileRequest(auditId: audit, actions: all, preview: false, user: "bench"))
    }
    print("  second run: \(again.total) changes")
    guard applied.total == preview.total, again.total == 0 else {
        fatalError("the apply differs from its preview, or a second run changed something")
    }
}

@main
struct ReconcileBenchmark {
    static func main() async throws {
        let options = Options()
        let actor = Actor(user: "bench", station: "bench")
        try await run(options, actor: actor)
    }

    static func run(_ options: Options, actor: Actor) async throws {
        if let url = options.postgres {
            let database = try await PostgresDatabase.open(try PostgresURL(url))
            try await database.whileRunning {
                let audits = PostgresAuditService(database: database)
                let dialect = Dialect(
                    numbers: { "generate_series(1, \($0)) AS n(i)" }, now: "now()", userColumn: "user_name", falseValue: "false")
                let audit = try await measure("setup (\(options.assets) assets)") {
                    try await populate({ try await database.execute($0) }, dialect: dialect, assets: options.assets) {
                        try await audits.start(country: "SG", by: actor).id
                    }
                }
                try await reconcileSteps(audits, audit: audit, assets: options.assets)
            }
        } else {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reconcile-bench-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let database = try AppDatabase(path: folder.appendingPathComponent("bench.sqlite").path)
            let audits = SQLiteAuditService(database: database)
            let dialect = Dialect(
                numbers: { "(WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \($0)) SELECT i FROM n)" },
                now: "strftime('%Y-%m-%d %H:%M:%f', 'now')", userColumn: "user", falseValue: "0")
            let audit = try await measure("setup (\(options.assets) assets)") {
                try await populate({ sql in try await database.writer.write { try $0.execute(sql: sql) } }, dialect: dialect, assets: options.assets)
                {
                    try await audits.start(country: "SG", by: actor).id
                }
            }
            try await reconcileSteps(audits, audit: audit, assets: options.assets)
        }
    }
}
