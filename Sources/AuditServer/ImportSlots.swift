import AuditAPI
import NIOConcurrencyHelpers

/// Imports whose rows are decoded whole in memory (JSON: about 5 times the body at the peak),
/// counted so that only `limit` run at once; one more is answered 503 with `Retry-After`.
final class ImportSlots: Sendable {
    let limit: Int
    private let running = NIOLockedValueBox(0)

    init(limit: Int) { self.limit = limit }

    /// Runs `body` in a slot, or throws `serverBusy` when every slot is taken.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        let claimed = running.withLockedValue { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        guard claimed else { throw APIFailure.serverBusy(retryAfter: 5) }
        defer { running.withLockedValue { $0 -= 1 } }
        return try await body()
    }
}
