import AuditClient
import ConnectedStation
import Foundation
import InventoryCore

/// What a connected station leaves behind when a front end exits.
public struct ExitSync: Sendable, Equatable {
    /// Scans pushed while the front end waited on purpose (`--sync-before-exit`).
    public var pushed: Int
    /// Scans still in the outbox; the next run, `sync` or the kiosk pushes them.
    public var waiting: Int
    /// Why they are still waiting, when the station knows (the last failed push).
    public var reason: String?

    /// The one line a person reads on exit, or nil when nothing waits.
    public var notice: String? {
        guard waiting > 0 else { return nil }
        let scans = waiting == 1 ? "1 scan waits" : "\(waiting) scans wait"
        return "\(scans) in this station's outbox and will sync on the next run, with `audit-station sync` or from the kiosk"
            + (reason.map { " (last try: \($0))" } ?? "")
    }
}

extension ScanSession {
    /// Ends a connected station's part: by default at once, leaving what the background push has
    /// not delivered in the durable outbox. With `limit` above zero it pushes first, for at most
    /// that long. Nil when standalone.
    public func finish(waitingUpTo limit: Duration = .zero) async -> ExitSync? {
        guard let connection else { return nil }
        var report: SyncReport?
        var timedOut = false
        if limit > .zero {
            report = await firstOf(limit) { await connection.syncNow() }
            timedOut = report == nil
        }
        let status = try? await connection.status()
        let waiting = status?.pendingScans ?? report?.remaining ?? 0
        let reason = report?.stoppedBy ?? (timedOut ? "no answer from \(connection.server) within \(limit)" : status?.lastError)
        return ExitSync(pushed: report?.pushed ?? 0, waiting: waiting, reason: waiting > 0 ? reason : nil)
    }
}

/// The value of `work`, or nil when `limit` passes first; the work is left running (the
/// process is about to end, and what it has not done stays in the outbox).
func firstOf<T: Sendable>(_ limit: Duration, _ work: @escaping @Sendable () async -> T) async -> T? {
    let gate = OnceGate<T?>()
    return await withCheckedContinuation { continuation in
        gate.arm(continuation)
        Task { gate.open(await work()) }
        Task {
            try? await Task.sleep(for: limit)
            gate.open(nil)
        }
    }
}

/// Resumes a continuation once, with whichever value comes first.
final class OnceGate<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Never>?
    private var done = false

    func arm(_ continuation: CheckedContinuation<Value, Never>) {
        lock.withLock { self.continuation = continuation }
    }

    func open(_ value: Value) {
        let waiting: CheckedContinuation<Value, Never>? = lock.withLock {
            guard !done else { return nil }
            done = true
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: value)
    }
}
