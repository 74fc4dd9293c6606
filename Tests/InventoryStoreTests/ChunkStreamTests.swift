import Foundation
@testable import InventoryStore
import Testing
import TestKit

/// A SQLite report is written on GRDB's reader thread and read by a task: the thread waits
/// while the task is behind, the task suspends while the thread has nothing yet.
@Suite("The report's stream from the database thread")
struct ChunkStreamTests {
    @Test("Every chunk arrives in order while the producer waits for a slow consumer")
    func everyChunkArrivesInOrder() async throws {
        let stream = ChunkStream(capacity: 2)
        let count = 50
        let producer = Thread {
            do {
                for index in 0..<count { try stream.put(Data([UInt8(index)])) }
                stream.finish(.success(()))
            } catch {
                stream.finish(.failure(error))
            }
        }
        producer.start()
        var received: [UInt8] = []
        while let chunk = try await stream.next() {
            received += chunk
            await Task.yield()
        }
        #expect(received == (0..<count).map(UInt8.init))
    }

    @Test("A producer's error reaches the consumer; a consumer that gives up releases the producer with its error")
    func errorsReachTheOtherSide() async throws {
        struct Broken: Error, Equatable {}
        let failing = ChunkStream(capacity: 2)
        try failing.put(Data([1]))
        failing.finish(.failure(Broken()))
        #expect(try await failing.next() == Data([1]))
        await #expect(throws: Broken.self) { try await failing.next() }

        let abandoned = ChunkStream(capacity: 1)
        let released = Locked<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let producer = Thread {
            do {
                for _ in 0..<10 { try abandoned.put(Data([0])) }
            } catch {
                released.set(error)
            }
            done.signal()
        }
        producer.start()
        _ = try await abandoned.next()
        abandoned.abandon(Broken())
        let finished = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: done.wait(timeout: .now() + 30) == .success) }
        }
        #expect(finished, "the producer was released")
        #expect(released.get() is Broken)
    }
}
