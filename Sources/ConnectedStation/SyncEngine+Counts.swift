import AuditAPI
import AuditClient
import ConnectedStore
import Foundation
import InventoryCore

extension SyncEngine {
    /// Sends the counts kept on this station whose earlier scans the server has answered, oldest
    /// first, each with its own `count_id` (a resend is the same count). A count the server
    /// refuses (the audit ended, no such accessory in it) is marked refused and kept here.
    /// Answers whether any count was settled, so the scans made after it can go next.
    func pushCounts(into report: inout SyncReport) async -> Bool {
        var failures = 0
        var settled = false
        waiting: while !Task.isCancelled {
            guard let ready = try? await outbox.readyCounts(limit: 100), !ready.isEmpty else { return settled }
            for count in ready {
                let id = count.request.countId ?? ""
                do {
                    let answer = try await client.send(.POST, Routes.auditCount, body: count.request, as: CountResult.self)
                    try? await outbox.settleCount(countID: id, state: .synced, message: answer.message)
                    settled = true
                    failures = 0
                } catch {
                    let outcome: Outcome? =
                        if let known = error as? InventoryError { Self.passing(known) } else { .retry(error.localizedDescription) }
                    switch outcome {
                    case .needsLogin(let message)?:
                        report.needsLogin = true
                        report.stoppedBy = message
                        return settled
                    case .retry(let message)?:
                        failures += 1
                        try? await outbox.noteCountFailure(countID: id, error: message)
                        if failures >= policy.maxAttempts {
                            report.stoppedBy = message
                            return settled
                        }
                        try? await Task.sleep(for: policy.delay(afterFailures: failures))
                        // The same count again before any after it.
                        continue waiting
                    default:
                        try? await outbox.settleCount(countID: id, state: .rejected, message: error.localizedDescription)
                        settled = true
                    }
                }
            }
        }
        return settled
    }
}
