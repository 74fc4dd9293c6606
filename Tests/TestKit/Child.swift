import Foundation
import Subprocess
#if canImport(System)
    import System
#else
    import SystemPackage
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// What a child process left when it ended.
public struct ChildOutput: Sendable {
    /// Its exit code, or the number of the signal that ended it.
    public var status: Int32
    /// The signal that ended it, if one did.
    public var signal: Int32?
    public var stdout: String
    public var stderr: String
    /// Set when `Child.run(timeout:)` had to kill it.
    public var hung = false
    public var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    init(_ termination: TerminationStatus, stdout: Data, stderr: Data) {
        switch termination {
        case .exited(let code):
            status = Int32(code)
            signal = nil
        case .signaled(let number):
            status = Int32(number)
            signal = Int32(number)
        }
        self.stdout = String(decoding: stdout, as: UTF8.self)
        self.stderr = String(decoding: stderr, as: UTF8.self)
    }
}

/// Child processes for the tests, started and awaited with swift-subprocess: nothing here
/// blocks a thread of Swift's concurrency pool (two on two cores) while a child runs.
public enum Child {
    /// The most a test collects of one stream.
    static let outputLimit = 1 << 30

    /// A write to a child that has gone must fail with EPIPE, not end the test process.
    static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Every child gets no colours, and bcrypt's lowest cost for the users it makes (the tests'
    /// logins would spend seconds of CPU at the production cost of 12; the cost itself is
    /// checked in `BcryptCostCommandTests`).
    static func environment(_ extra: [String: String]) -> Subprocess.Environment {
        var values: [Subprocess.Environment.Key: String?] = ["NO_COLOR": "1", "AUDIT_STATION_BCRYPT_COST": "4"]
        for (key, value) in extra { values[Subprocess.Environment.Key(stringLiteral: key)] = value }
        return .inherit.updating(values)
    }

    /// Runs `executable` to its end with `input` on its standard input; collects both outputs.
    /// `onStart` gets its process id as soon as it runs. With a `timeout`, a child still running
    /// then is killed with SIGKILL and the output says `hung`.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        input: Data = Data(), directory: URL? = nil, timeout: Duration? = nil,
        onStart: @escaping @Sendable (pid_t) -> Void = { _ in }
    ) async throws -> ChildOutput {
        _ = ignoreBrokenPipes
        let hung = Locked(false)
        let watchdog = Locked<Task<Void, Never>?>(nil)
        let bytes = [UInt8](input)
        let result = try await Subprocess.run(
            .path(FilePath(executable)), arguments: Arguments(arguments), environment: Self.environment(environment),
            workingDirectory: directory.map { FilePath($0.path) },
            input: .inputWriter, output: .data(limit: outputLimit), error: .data(limit: outputLimit)
        ) { execution in
            let pid = execution.processIdentifier.value
            ThreadsExecutor.prioritize(pid)
            onStart(pid)
            if let timeout {
                watchdog.set(
                    Task(executorPreference: ThreadsExecutor.preferred) {
                        guard (try? await Task.sleep(for: timeout)) != nil else { return }
                        hung.set(true)
                        kill(pid, SIGKILL)
                    })
            }
            // A child that exits before reading all its input is not an error of the test's.
            _ = try? await execution.standardInputWriter.write(bytes)
            try? await execution.standardInputWriter.finish()
        }
        watchdog.get()?.cancel()
        var output = ChildOutput(result.terminationStatus, stdout: result.standardOutput, stderr: result.standardError)
        output.hung = hung.get()
        return output
    }

    /// Runs `executable` with its input and output streamed: `body` gets the process id, a
    /// writer for its standard input and its standard output as whole lines (split at "\n" only;
    /// a last line that never got its "\n", torn by a kill, is left out). The child is awaited
    /// after `body` returns (kill it in `body` to end it early).
    public static func stream<T: Sendable>(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        _ body: @escaping @Sendable (_ pid: pid_t, _ input: ChildInput, _ lines: AsyncThrowingStream<String, any Error>) async throws -> T
    ) async throws -> (result: T, output: ChildOutput) {
        _ = ignoreBrokenPipes
        let result = try await Subprocess.run(
            .path(FilePath(executable)), arguments: Arguments(arguments), environment: Self.environment(environment),
            input: .inputWriter, output: .sequence, error: .discarded
        ) { execution in
            let lines = AsyncThrowingStream<String, any Error> { continuation in
                let reader = Task(executorPreference: ThreadsExecutor.preferred) {
                    do {
                        var pending: [UInt8] = []
                        for try await buffer in execution.standardOutput {
                            buffer.withUnsafeBytes { pending.append(contentsOf: $0) }
                            while let newline = pending.firstIndex(of: 10) {
                                continuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                                pending.removeSubrange(...newline)
                            }
                        }
                        continuation.finish()
                    } catch { continuation.finish(throwing: error) }
                }
                continuation.onTermination = { _ in reader.cancel() }
            }
            let writer = execution.standardInputWriter
            ThreadsExecutor.prioritize(execution.processIdentifier.value)
            return try await body(
                execution.processIdentifier.value,
                ChildInput { bytes in
                    _ = try await writer.write(bytes)
                } finish: {
                    try await writer.finish()
                }, lines)
        }
        return (result.closureResult, ChildOutput(result.terminationStatus, stdout: Data(), stderr: Data()))
    }

    /// Starts a long-running child whose output (both streams) goes to `log`, and returns
    /// once it runs. The child is awaited by a task of its own; `RunningChild` signals and awaits it.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        directory: URL? = nil, log: URL
    ) async throws -> RunningChild {
        _ = ignoreBrokenPipes
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw ChildError("cannot create \(log.path)")
        }
        let out = open(log.path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard out >= 0 else { throw ChildError("cannot open \(log.path): errno \(errno)") }
        let err = dup(out)
        let (started, startedContinuation) = AsyncStream<pid_t>.makeStream()
        let exit = Locked<ChildOutput?>(nil)
        let configuration = Configuration(
            executable: .path(FilePath(executable)), arguments: Arguments(arguments),
            environment: Self.environment(environment),
            workingDirectory: directory.map { FilePath($0.path) })
        let task = Task<ChildOutput, any Error>(executorPreference: ThreadsExecutor.preferred) {
            defer { startedContinuation.finish() }
            let result = try await Subprocess.run(
                configuration, input: .none,
                output: .fileDescriptor(FileDescriptor(rawValue: out), closeAfterSpawningProcess: true),
                error: .fileDescriptor(FileDescriptor(rawValue: err), closeAfterSpawningProcess: true)
            ) { execution in
                ThreadsExecutor.prioritize(execution.processIdentifier.value)
                startedContinuation.yield(execution.processIdentifier.value)
            }
            let output = ChildOutput(result.terminationStatus, stdout: Data(), stderr: Data())
            exit.set(output)
            return output
        }
        var iterator = started.makeAsyncIterator()
        guard let pid = await iterator.next() else {
            _ = try await task.value
            throw ChildError("\(executable) did not start")
        }
        return RunningChild(pid: pid, task: task, exit: exit, log: log)
    }
}

/// The standard input of a streamed child.
public struct ChildInput: Sendable {
    let writeBytes: @Sendable ([UInt8]) async throws -> Void
    let finishWriting: @Sendable () async throws -> Void
    init(_ write: @escaping @Sendable ([UInt8]) async throws -> Void, finish: @escaping @Sendable () async throws -> Void) {
        writeBytes = write
        finishWriting = finish
    }
    public func write(_ data: Data) async throws { try await writeBytes([UInt8](data)) }
    public func finish() async throws { try await finishWriting() }
}

/// A child started by `Child.start`: it can be signalled at any time (also from `deinit`)
/// and awaited without blocking a thread.
public final class RunningChild: Sendable {
    public let pid: pid_t
    public let log: URL
    private let task: Task<ChildOutput, any Error>
    private let exit: Locked<ChildOutput?>

    init(pid: pid_t, task: Task<ChildOutput, any Error>, exit: Locked<ChildOutput?>, log: URL) {
        self.pid = pid
        self.task = task
        self.exit = exit
        self.log = log
    }

    /// A child whose handle is dropped (a test that threw midway) does not outlive it: SIGKILL,
    /// never a wait; its own task reaps it.
    deinit {
        send(SIGKILL)
    }

    /// Whether it has not been seen to end yet.
    public var isRunning: Bool { exit.get() == nil }

    /// What it has written to its log so far.
    public var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Sends `signal` if it still runs; never waits.
    public func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Awaits its end; its exit code or signal number.
    @discardableResult
    public func wait() async -> Int32 {
        (try? await task.value)?.status ?? -1
    }

    /// SIGKILL, as in a crash or a power cut, and awaits its end.
    public func kill9() async {
        send(SIGKILL)
        await wait()
    }

    /// SIGTERM, then SIGKILL after `grace`; its exit code or signal number.
    @discardableResult
    public func stop(grace: Duration = .seconds(10)) async -> Int32 {
        send(SIGTERM)
        let killer = Task(executorPreference: ThreadsExecutor.preferred) { [pid] in
            guard (try? await Task.sleep(for: grace)) != nil else { return }
            kill(pid, SIGKILL)
        }
        let status = await wait()
        killer.cancel()
        return status
    }

    /// Polls `found` over the log every 50 ms until it gives a value, the child ends, or
    /// `timeout` passes.
    public func waitForLog<T>(_ what: String, timeout: Duration = .seconds(30), _ found: (String) -> T?) async throws -> T {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let value = found(logText) { return value }
            guard isRunning else { throw ChildError("\(what) exited with \(await wait()): \(logText.suffix(3000))") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ChildError("\(what) was not ready within \(timeout): \(logText.suffix(3000))")
    }
}

public struct ChildError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
