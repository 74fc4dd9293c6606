import Foundation

/// Hands chunks from an asynchronous producer to a database thread that waits for them.
///
/// An import is one SQLite transaction, and GRDB runs a transaction as one synchronous closure
/// on the writer's own thread (other writers queue behind it, as they must while the write lock
/// is held). So the closure blocks here between chunks, while a task reads the stream and
/// prepares the next ones on the cooperative pool. The producer waits, without blocking a
/// thread, once it is `capacity` chunks ahead.
final class ChunkHandoff<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var buffer: [Element] = []
    private var end: Result<Void, any Error>?
    private var spaceWaiter: CheckedContinuation<Void, Never>?
    private var abandoned = false

    init(capacity: Int) { self.capacity = capacity }

    /// Adds a chunk, waiting while the consumer is `capacity` chunks behind. Returns false once
    /// the consumer has given up, so the producer can stop.
    func put(_ element: Element) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            guard !abandoned else {
                condition.unlock()
                continuation.resume()
                return
            }
            buffer.append(element)
            condition.signal()
            if buffer.count >= capacity {
                spaceWaiter = continuation
                condition.unlock()
            } else {
                condition.unlock()
                continuation.resume()
            }
        }
        return condition.withLock { !abandoned }
    }

    /// Ends the stream: normally, or with the producer's error.
    func finish(_ result: Result<Void, any Error>) {
        condition.withLock {
            if end == nil { end = result }
            condition.signal()
        }
    }

    /// The next chunk, blocking the calling thread until it comes; nil at the end. Throws the
    /// producer's error.
    func take() throws -> Element? {
        condition.lock()
        while buffer.isEmpty && end == nil { condition.wait() }
        guard !buffer.isEmpty else {
            let end = end
            condition.unlock()
            try end?.get()
            return nil
        }
        let element = buffer.removeFirst()
        let waiter = spaceWaiter
        spaceWaiter = nil
        condition.unlock()
        waiter?.resume()
        return element
    }

    /// The consumer stops taking: a waiting producer is released and later chunks are dropped.
    func abandon() {
        condition.lock()
        abandoned = true
        buffer.removeAll()
        let waiter = spaceWaiter
        spaceWaiter = nil
        condition.unlock()
        waiter?.resume()
    }
}
