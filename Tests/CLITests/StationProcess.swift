import Foundation
import Testing

/// Runs the built `audit-station` executable as a child process, as a person or a script would.
struct StationProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        var lines: [String] { stdout.split(separator: "\n").map(String.init) }
    }

    /// The executable next to the test bundle (swift test builds it because this target
    /// depends on it).
    static let executable: URL = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        for folder in candidates {
            let url = folder.appendingPathComponent("audit-station")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return candidates[0].appendingPathComponent("audit-station")
    }()

    /// A fresh folder with a database path in it, removed when the test process ends.
    static func scratch() throws -> (folder: URL, database: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("audit-station-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder, folder.appendingPathComponent("station.sqlite").path)
    }

    /// Runs to completion, feeding `input` on standard input.
    @discardableResult
    static func run(_ arguments: [String], input: Data = Data(), environment: [String: String] = [:],
                    directory: URL? = nil, onStart: (pid_t) -> Void = { _ in }) throws -> Output {
        let process = Process()
        if let directory { process.currentDirectoryURL = directory }
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        onStart(process.processIdentifier)
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let errData = Locked(Data())
        let errReader = Thread { errData.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        errReader.start()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while errReader.isExecuting || !errReader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        return Output(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: errData.get(), as: UTF8.self))
    }
}

/// A value shared with a reader thread.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&value) } }
}

/// Parses one JSON line into a dictionary.
func jsonObject(_ line: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
}
