import Foundation
import Testing

/// The parent of every suite whose checks depend on time: a camera's frame pace, kills mid-way,
/// deadlines for slow or dead peers, a browser. They run one at a time, so two of them never
/// share the two cores; everything else runs in parallel beside them. A suite joins it by
/// being declared in an extension: `extension TimingSensitive { @Suite struct … }`.
///
/// Their tasks run on two threads of their own (`OwnThreads`), not on Swift's cooperative pool:
/// with everything else in parallel, the pool's two threads have hundreds of jobs waiting, and
/// each `await` of a timed check would wait its turn behind them (a login took 0.3 s instead
/// of 5 ms). On threads of their own they get the processor from the kernel like any thread.
@Suite(.serialized, OwnThreads()) public enum TimingSensitive {}

/// Runs each test case of a suite with a task executor of two threads of its own as the
/// preferred executor of its tasks (and of their child tasks and default actors).
public struct OwnThreads: SuiteTrait, TestTrait, TestScoping {
    public init() {}

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(Self.executor) { try await function() }
    }

    static let executor = ThreadsExecutor(threads: 2, name: "timing-sensitive")
}

/// A task executor over threads of its own that run the jobs given to it in order. The threads
/// wait on a condition variable when there is nothing to run: they are not the cooperative
/// pool's, so waiting there blocks no task of anyone else.
public final class ThreadsExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    public init(threads: Int, name: String) {
        for index in 0..<threads {
            let thread = Thread { [self] in run() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
