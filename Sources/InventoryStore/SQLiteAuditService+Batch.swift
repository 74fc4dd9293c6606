import Foundation
import GRDB
import InventoryCore

extension SQLiteAuditService {
    /// Records many scans in one transaction, each in a savepoint of its own, so one scan's
    /// refusal (a bad field, an ended audit, a scan_id of another audit) is its own answer and
    /// the others are stored; a failure of the database itself stores none. Idempotent per
    /// `scan_id` like `record`, and as exact, since SQLite runs one writer at a time.
    public func record(batch requests: [ScanRequest]) async throws -> [Result<ScanResult, InventoryError>] {
        let checked = PreparedScan.batch(requests, prepare)
        var results = checked.results
        let caseSensitive = caseSensitive
        let items = checked.prepared
        let stored = try await database.write { db in
            try items.map { item -> (Int, Result<ScanResult, InventoryError>) in
                var outcome = Result<ScanResult, InventoryError>.failure(.storage("not stored"))
                try db.inSavepoint {
                    do {
                        outcome = .success(try Self.store(db, item.scan, caseSensitive: caseSensitive))
                        return .commit
                    } catch let error as DatabaseError {
                        throw error
                    } catch {
                        outcome = .failure(InventoryError(error) ?? .storage("\(error)"))
                        return .rollback
                    }
                }
                return (item.index, outcome)
            }
        }
        for (index, outcome) in stored { results[index] = outcome }
        return results
    }
}
