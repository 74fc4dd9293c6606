import Foundation
import GRDB
import InventoryCore
import InventoryStore

// Cycle counts on SQLite: the time of `audit due` (every plan read, its state computed, sorted)
// over PLANS plans, and what webhooks add to ending an audit (its transaction queues one
// delivery a webhook; nothing is sent in it).
//
//   swift run -c release --package-path Benchmarks plans-benchmark [PLANS] [ROUNDS]

let arguments = CommandLine.arguments
let planCount = arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 20 : 20
let path = FileManager.default.temporaryDirectory.appendingPathComponent("plans-benchmark-\(UUID().uuidString).sqlite").path
defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
let database = try AppDatabase(path: path)
let backend = ServerBackend.sqlite(database)

func milliseconds(_ seconds: [Double]) -> (median: Double, p95: Double) {
    let sorted = seconds.sorted()
    return (sorted[sorted.count / 2] * 1000, sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))] * 1000)
}

func format(_ value: Double) -> String { String(format: "%.2f", value) }

// PLANS plans: one a location (made in one transaction; the store's checks are the CLI's, this
// measures the read), a third of them audited at different times, so the states are mixed.
let now = Date()
try database.writer.write { db in
    for index in 0..<planCount {
        let created = now.addingTimeInterval(-Double(index % 400) * 86_400)
        let every = 7 + index % 90
        let ended: Date? = index % 3 == 0 ? now.addingTimeInterval(-Double(index % 120) * 86_400) : nil
        let due = AuditPlan.deadline(from: ended ?? created, everyDays: every)
        try db.execute(
            sql: """
                INSERT INTO audit_plans (country, location, every_days, created_at, last_audit_id, last_ended_at, next_due_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, arguments: [index % 2 == 0 ? "SG" : "MY", "Bay \(index)", every, created, ended.map { _ in "audit-\(index)" }, ended, due])
    }
}
var dueTimes: [Double] = []
var states: [DueState: Int] = [:]
for _ in 0..<rounds {
    let started = Date()
    let due = try await backend.plans.due(at: now, windowDays: 14)
    dueTimes.append(Date().timeIntervalSince(started))
    states = Dictionary(grouping: due, by: \.state).mapValues(\.count)
}
let due = milliseconds(dueTimes)
print("audit due over \(planCount) plans (\(states[.overdue] ?? 0) overdue, \(states[.due] ?? 0) due, \(states[.ok] ?? 0) ok):")
print("  median \(format(due.median)) ms, p95 \(format(due.p95)) ms (\(rounds) rounds)")

// Ending an audit of 1,000 assets, with no webhook, then with 10 that want audit.ended.
for index in 0..<1000 {
    _ = try await backend.assets.create(AssetInput(assetTag: "SG-\(index)", name: "Laptop", country: "SG"))
}
let actor = Actor(user: "bench", station: "bench")
func endTimes() async throws -> [Double] {
    var times: [Double] = []
    for _ in 0..<rounds {
        let audit = try await backend.audits.start(country: "SG", by: actor)
        let started = Date()
        _ = try await backend.audits.end(auditID: audit.id, by: actor)
        times.append(Date().timeIntervalSince(started))
    }
    return times
}
_ = try await endTimes() // warm-up
let without = milliseconds(try await endTimes())
for index in 0..<10 {
    _ = try await backend.webhooks.add(
        WebhookInput(url: "http://127.0.0.1:9/hook-\(index)", events: ["audit.started", "audit.ended"], secret: "benchmark-secret-\(index)"))
}
let with = milliseconds(try await endTimes())
let queued = try await backend.webhooks.deliveries(failedOnly: false, limit: 1000).count
print("ending an audit of 1,000 assets (\(rounds) rounds):")
print("  no webhook:   median \(format(without.median)) ms, p95 \(format(without.p95)) ms")
print("  10 webhooks:  median \(format(with.median)) ms, p95 \(format(with.p95)) ms (\(queued) deliveries queued, none sent)")
