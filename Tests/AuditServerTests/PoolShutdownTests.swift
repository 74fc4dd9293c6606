import Foundation
import PostgresStore
import Testing

/// `PostgresDatabase.whileRunning` waits for its pool's shutdown, but not forever: the wait it
/// uses ends when the task does, or at its limit.
@Suite("A pool's shutdown is waited for within a bound")
struct PoolShutdownTests {
    @Test func aTaskThatEndsIsWaitedForUntilItsEnd() async {
        let clock = ContinuousClock()
        let started = clock.now
        let task = Task { _ = try? await Task.sleep(for: .milliseconds(300)) }
        // `true` is the task's answer, not the limit's (that one answers false): the wait ended
        // with the task. How long it took is not asserted beyond that: with the whole suite on
        // two cores, a 300 ms sleep once resumed 34 s late.
        #expect(await PostgresDatabase.wait(for: task, atMost: .seconds(600)), "the task ended")
        let waited = clock.now - started
        #expect(waited >= .milliseconds(250), "returned before the task ended: \(waited)")
    }

    @Test func aTaskThatNeverEndsIsLeftAtTheLimit() async {
        let clock = ContinuousClock()
        let started = clock.now
        let (never, keep) = AsyncStream.makeStream(of: Int.self)
        let task = Task { for await _ in never {} }
        #expect(await PostgresDatabase.wait(for: task, atMost: .milliseconds(300)) == false, "the limit came first")
        let waited = clock.now - started
        #expect(waited >= .milliseconds(250), "returned before the limit: \(waited)")
        #expect(!task.isCancelled, "the task is left running, not cancelled")
        keep.finish()
        await task.value
    }
}
