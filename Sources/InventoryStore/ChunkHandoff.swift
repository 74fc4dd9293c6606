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

/// Hands chunks the other way: from a database thread that may wait (GRDB runs a read as one
/// synchronous closure on a thread of its own) to an asynchronous consumer, which suspends
/// instead of blocking a thread of the concurrency pool. The producer waits once it is
/// `capacity` chunks ahead.
final class ChunkStream: @unchecked Sendable {
    private let condition = NSCondition()
    private let capacity: Int
    private var buffer: [Data] = []
    private var end: Result<Void, any Error>?
    private var abandoned: (any Error)?
    private var waiter: CheckedContinuation<Void, Never>?

    init(capacity: Int) { self.capacity = capacity }

    /// Adds a chunk, blocking the calling (database) thread while the consumer is `capacity`
    /// chunks behind. Throws the consumer's error once it has given up.
    func put(_ chunk: Data) throws {
        condition.lock()
        while buffer.count >= capacity && abandoned == nil { condition.wait() }
        if let abandoned {
            condition.unlock()
            throw abandoned
        }
        buffer.append(chunk)
        let waiter = self.waiter
        self.waiter = nil
        condition.unlock()
        waiter?.resume()
    }

    /// Ends the stream: normally, or with the producer's error.
    func finish(_ result: Result<Void, any Error>) {
        condition.lock()
        if end == nil { end = result }
        let waiter = self.waiter
        self.waiter = nil
        condition.unlock()
        waiter?.resume()
    }

    /// The next chunk, suspending until it comes; nil at the end. Throws the producer's error.
    func next() async throws -> Data? {
        while true {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                condition.lock()
                if buffer.isEmpty && end == nil {
                    waiter = continuation
                    condition.unlock()
                } else {
                    condition.unlock()
                    continuation.resume()
                }
            }
            let step: Result<Data?, any Error>? = condition.withLock {
                if !buffer.isEmpty {
                    let chunk = buffer.removeFirst()
                    condition.broadcast()
                    return .success(chunk)
                }
                return end.map { $0.map { nil } }
            }
            if let step { return try step.get() }
        }
    }

    /// The consumer stops taking: a waiting producer is released with `error`, and later chunks
    /// are refused.
    func abandon(_ error: any Error) {
        condition.lock()
        if abandoned == nil { abandoned = error }
        buffer.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
