@testable import DocumentKit
import Foundation
import Testing

/// The report's JSON reaches the PDF's reader thread through a `Handoff`. A task that sends
/// into a full one suspends: it holds no thread of the concurrency pool, which has only as many
/// threads as the machine has cores.
@Suite("The PDF writer's handoff")
struct HandoffTests {
    @Test("Tasks sending into a full handoff suspend without holding the pool's threads, and every item arrives")
    func sendersSuspend() async throws {
        let handoff = Handoff<Int>(capacity: 1)
        try await handoff.send(0)
        let senderCount = ProcessInfo.processInfo.activeProcessorCount * 3
        let senders = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for item in 1...senderCount { group.addTask { try await handoff.send(item) } }
                try await group.waitForAll()
            }
        }
        // Every sender waits for room: more of them than the pool has threads.
        while handoff.waitingSenders < senderCount { await Task.yield() }
        // The pool still runs other work meanwhile.
        let other = await Task.detached { (1...1000).reduce(0, +) }.value
        #expect(other == 500_500)
        let taken = try await onOwnThread(name: "handoff-taker") {
            var items: [Int] = []
            while items.count <= senderCount, let item = handoff.take() { items.append(item) }
            return items
        }
        try await senders.value
        #expect(taken.sorted() == Array(0...senderCount))
    }

    @Test("A taker's failure releases the waiting senders with it")
    func aFailureReleasesSenders() async throws {
        struct Broken: Error {}
        let handoff = Handoff<Int>(capacity: 1)
        try await handoff.send(0)
        let sender = Task { try await handoff.send(1) }
        while handoff.waitingSenders < 1 { await Task.yield() }
        handoff.fail(Broken())
        await #expect(throws: Broken.self) { try await sender.value }
        #expect(handoff.take() == nil)
    }
}
