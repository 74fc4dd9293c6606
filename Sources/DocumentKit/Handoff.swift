import Foundation

/// A bounded queue to a thread of its own, which takes. The putting side is a thread too
/// (`put`, which waits while the queue is full) or a task (`send`, which suspends instead, so
/// no thread of the concurrency pool is held). The first failure of either side is kept: `put`
/// and `send` then throw it, and `take` answers nil, so neither side waits for the other after
/// a failure.
final class Handoff<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Item] = []
    /// Tasks suspended in `send` until there is room (or a failure).
    private var senders: [CheckedContinuation<Void, Never>] = []
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

    /// Adds an item from a task: suspends while the queue is full; throws the taker's failure, if any.
    func send(_ item: Item) async throws {
        while true {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                condition.lock()
                if items.count >= capacity && failure == nil {
                    senders.append(continuation)
                    condition.unlock()
                } else {
                    condition.unlock()
                    continuation.resume()
                }
            }
            let added: Result<Bool, any Error> = condition.withLock {
                if let failure { return .failure(failure) }
                guard items.count < capacity else { return .success(false) }
                items.append(item)
                condition.broadcast()
                return .success(true)
            }
            if try added.get() { return }
        }
    }

    /// The next item, or nil once the queue is closed and empty (or failed).
    func take() -> Item? {
        condition.lock()
        while items.isEmpty && !closed && failure == nil { condition.wait() }
        guard failure == nil, !items.isEmpty else {
            condition.unlock()
            return nil
        }
        let item = items.removeFirst()
        condition.broadcast()
        let waiting = senders
        senders = []
        condition.unlock()
        for sender in waiting { sender.resume() }
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
        let waiting = senders
        senders = []
        condition.unlock()
        for sender in waiting { sender.resume() }
    }

    var error: (any Error)? { condition.withLock { failure } }

    /// The tasks suspended in `send` now.
    var waitingSenders: Int { condition.withLock { senders.count } }
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
