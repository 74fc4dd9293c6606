import Foundation

/// A bounded queue between two threads: one puts (and waits while it is full), a thread of its
/// own takes. The first failure of either side is kept: `put` then throws it, and `take` answers
/// nil, so neither side waits for the other after a failure.
final class Handoff<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Item] = []
    private let capacity: Int
    private var closed = false
    private var failure: (any Error)?

    init(capacity: Int) { self.capacity = capacity }

    /// Waits while the queue is full; throws the taker's failure, if any.
    func put(_ item: Item) throws {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= capacity && failure == nil { condition.wait() }
        if let failure { throw failure }
        items.append(item)
        condition.broadcast()
    }

    /// The next item, or nil once the queue is closed and empty (or failed).
    func take() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed && failure == nil { condition.wait() }
        guard failure == nil, !items.isEmpty else { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// No more items will come.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops both sides with `error` (the first one is kept).
    func fail(_ error: any Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    var error: (any Error)? { condition.withLock { failure } }
}

/// Runs `body` on a thread of its own (long CPU work that should not hold one of the
/// concurrency pool's threads) and answers what it answered once it has returned.
func onOwnThread<T: Sendable>(name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<T, any Error>) in
        let thread = Thread { done.resume(with: Result { try body() }) }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }
}
