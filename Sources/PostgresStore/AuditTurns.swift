import InventoryCore
import Synchronization

/// Scans of one audit take turns at their write within one server process, first come first
/// served. The database already serialises them (the audit's row lock, see
/// `PostgresAuditService.store`); this keeps a process's waiting scans in its own memory
/// instead of as backends queued on that lock. PostgreSQL wakes every backend waiting on a row
/// lock when it is released, so with dozens waiting most of the machine went to waking them;
/// now at most one backend a server process waits. Reading the facts is not part of a turn.
final class AuditTurns: Sendable {
    /// Audits with a write under way, each with the writes waiting for it in arrival order.
    private let queues = Mutex<[AuditID: [CheckedContinuation<Void, Never>]]>([:])

    /// Runs `body` when it is this caller's turn at `audit`.
    func run<T>(_ audit: AuditID, _ body: () async throws -> T) async throws -> T {
        await take(audit)
        defer { pass(audit) }
        return try await body()
    }

    private func take(_ audit: AuditID) async {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let free = queues.withLock { queues in
                guard queues[audit] != nil else {
                    queues[audit] = []
                    return true
                }
                queues[audit]!.append(turn)
                return false
            }
            if free { turn.resume() }
        }
    }

    private func pass(_ audit: AuditID) {
        let next = queues.withLock { queues -> CheckedContinuation<Void, Never>? in
            guard var waiting = queues[audit], !waiting.isEmpty else {
                queues[audit] = nil
                return nil
            }
            let next = waiting.removeFirst()
            queues[audit] = waiting
            return next
        }
        next?.resume()
    }
}
