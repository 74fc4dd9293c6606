import Foundation

/// A thread-safe counter.
final class ManagedCounter: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var value = 0

    func increment() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
