import Foundation
import Testing

/// The parent of every suite whose checks depend on time without a browser: a camera's frame
/// pace, kills mid-way, deadlines for slow or dead peers, login timing. They run one at a time,
/// so two of them never share the two cores; everything else runs in parallel beside them. A
/// suite joins it by being declared in an extension: `extension TimingSensitive { @Suite struct … }`.
///
/// Their tasks run on two threads of their own (`OwnThreads`), not on Swift's cooperative pool:
/// with everything else in parallel, the pool's two threads have hundreds of jobs waiting, and
/// each `await` of a timed check would wait its turn behind them (a login took 0.3 s instead
/// of 5 ms). On threads of their own they get the processor from the kernel like any thread.
@Suite(.serialized, OwnThreads(.timing)) public enum TimingSensitive {}

/// The parent of every suite that drives Chromium (the kiosk and the back office). They run one
/// at a time, one browser at once, on two threads of their own; they run beside the
/// `TimingSensitive` chain, not after it. Together the two chains were the whole run's length
/// (368 s of 376 s, on an idle machine); split, each is about half of it. The browser's checks
/// wait for what they expect to see (WebDriver polls), so another chain beside them slows them
/// without making them fail.
@Suite(.serialized, OwnThreads(.browser)) public enum InBrowser {}

/// The back office's browser suites: a chain of their own, with a browser of their own, beside
/// the kiosk's. Once the other tests are done, the kiosk chain alone was left running for
/// the last 100 s of the run with a core half idle, its back office part last.
@Suite(.serialized, OwnThreads(.officeBrowser)) public enum InOfficeBrowser {}

/// A third browser chain: the back office's other half (its screens and inventory) and the
/// kiosk's locations suite, with a browser of its own. With the back office on one chain, it
/// ended last (244–248 s of a whole run), its last 45 s with every other test done and the cores
/// half idle; then the kiosk's first chain did, its locations suite last.
@Suite(.serialized, OwnThreads(.thirdBrowser)) public enum InThirdBrowser {}

/// The kiosk's gun and typed-text suites: a second kiosk chain, with a browser of its own
/// (`BrowserChain(.second)`), beside `InBrowser`. Alone on an idle machine the kiosk chain took
/// 145 s for about 75 s of CPU, most of it waiting for pages and the kiosk, and it was the whole
/// run's length (294.6 s with everything else beside it); two chains wait side by side.
@Suite(.serialized, OwnThreads(.secondBrowser)) public enum InSecondBrowser {}

/// Runs each test case of a suite with a task executor of two threads of its own as the
/// preferred executor of its tasks (and of their child tasks and default actors).
public struct OwnThreads: SuiteTrait, TestTrait, TestScoping {
    let executor: ThreadsExecutor

    public init(_ executor: ThreadsExecutor) { self.executor = executor }

    public var isRecursive: Bool { true }

    /// The chain's suites too, not only its test cases: the test runner's own steps between two
    /// tests of a chain (its events, the next test's start) then run on these threads, and a chain
    /// does not wait for a turn on the cooperative pool before each test. With every suite of a
    /// whole run starting at once, the back office chain's first test waited 23 s to start.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase != nil || test.isSuite ? self : nil }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await ThreadsExecutor.$preferred.withValue(executor) {
            try await withTaskExecutorPreference(executor) { try await function() }
        }
    }
}

extension ThreadsExecutor {
    /// The threads the running test prefers (`OwnThreads`), or nil on the cooperative pool.
    /// Swift's `Task {}` does not inherit a task's executor preference, but it does inherit
    /// task-local values: the test kit's own unstructured tasks (a child process's, a test
    /// server's) start with `Task(executorPreference: ThreadsExecutor.preferred)`, so a test on
    /// threads of its own does not wait for the pool's turn each time a child starts or ends.
    @TaskLocal public static var preferred: ThreadsExecutor?

    /// Gives the process `pid`, just started by the running test, the niceness of the test's
    /// chain (`childNice`); nothing for a test on the pool.
    public static func prioritize(_ pid: pid_t) {
        guard let nice = preferred?.childNice, nice != 0 else { return }
        // Never lower a priority the process already has above the chain's (Chromium's own -8).
        errno = 0
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid))
        if errno == 0 && current <= nice { return }
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid), nice)
    }

    /// An unstructured task on these threads, with them as `preferred` for the tasks it makes.
    public func task<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Task<T, any Error> {
        Task(executorPreference: self) { try await Self.$preferred.withValue(self) { try await body() } }
    }
}

/// A task executor over threads of its own that run the jobs given to it in order. The threads
/// wait on a condition variable when there is nothing to run: they are not the cooperative
/// pool's, so waiting there blocks no task of anyone else.
public final class ThreadsExecutor: TaskExecutor, @unchecked Sendable {
    /// The threads of `TimingSensitive`'s suites.
    public static let timing = ThreadsExecutor(threads: 2, name: "timing-sensitive")
    /// The threads of `InBrowser`'s suites.
    public static let browser = ThreadsExecutor(threads: 2, name: "in-browser")
    /// The threads of `InOfficeBrowser`'s suites.
    public static let officeBrowser = ThreadsExecutor(threads: 2, name: "in-office-browser")
    /// The threads of `InSecondBrowser`'s suites.
    public static let secondBrowser = ThreadsExecutor(threads: 2, name: "in-second-browser")
    /// The threads of `InThirdBrowser`'s suites.
    public static let thirdBrowser = ThreadsExecutor(threads: 2, name: "in-third-browser")
    /// The thread that starts the tests' PostgreSQL cluster and migrates its template: each step
    /// of the start (five child processes, then the migrations) goes on without waiting for a
    /// turn on the cooperative pool, where every suite of a whole run starts at once.
    public static let cluster = ThreadsExecutor(threads: 1, name: "postgres-cluster", childNice: 0)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    /// The niceness of the processes a chain's tests start: its kiosks, servers and
    /// chromedriver (Chromium, run as root, sets its own: -8 for its browser and GPU processes,
    /// 0 or 5 for its pages, whatever it was started with). The four chains
    /// are a whole run's critical path, each 58–111 s long alone, and the rest of the tests, in
    /// parallel beside them, need about as much processor time as the chains do. At the same
    /// niceness the chains got an even share of two busy cores and ended last, at 230–260 s,
    /// long after the rest (180–190 s). Ahead of the rest, they end sooner and the rest fills
    /// the cores behind them. Only the children are reniced, not the chains' threads: a
    /// thread's niceness passes to every thread it makes, the pool's workers included. Raising
    /// a priority needs root (the CI runs as root); elsewhere children keep the test's.
    public let childNice: Int32

    public init(threads: Int, name: String, childNice: Int32 = -5) {
        self.childNice = childNice
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
