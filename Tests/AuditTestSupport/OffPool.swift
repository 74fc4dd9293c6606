import Foundation

/// Runs blocking work (a child process, a socket read, a wait) on a thread of its own and
/// awaits it. Swift's concurrency pool has one thread per core, two here, and the tests share
/// it with the servers they start in this process: a test that blocks a pool thread can starve
/// every other test's server of its answers.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
