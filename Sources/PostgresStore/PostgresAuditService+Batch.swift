import Foundation
import InventoryCore
import PostgresNIO

extension PostgresAuditService {
    /// Records many scans in one transaction, each in a savepoint of its own, so one scan's
    /// refusal (a bad field, an ended audit, a scan_id of another audit) is its own answer and
    /// the others are stored; a failure of the database itself stores none. Idempotent per
    /// `scan_id` like `record`, and as exact: each write takes the audit's row lock as `store`
    /// says, and the transaction holds it to the end.
    public func record(batch requests: [ScanRequest]) async throws -> [Result<ScanResult, InventoryError>] {
        let checked = PreparedScan.batch(requests, prepare)
        var results = checked.results
        let caseSensitive = caseSensitive
        let items = checked.prepared
        let stored = try await database.transaction { c in
            var outcomes: [(Int, Result<ScanResult, InventoryError>)] = []
            for item in items {
                try await c.run("SAVEPOINT scan")
                do {
                    let result = try await Self.deciding(onStale: { try await c.run("ROLLBACK TO SAVEPOINT scan") }) {
                        try await Self.store(c, item.scan, caseSensitive: caseSensitive)
                    }
                    outcomes.append((item.index, .success(result)))
                    try await c.run("RELEASE SAVEPOINT scan")
                } catch let error as InventoryError {
                    try await c.run("ROLLBACK TO SAVEPOINT scan")
                    outcomes.append((item.index, .failure(error)))
                }
            }
            return outcomes
        }
        for (index, outcome) in stored { results[index] = outcome }
        return results
    }
}
