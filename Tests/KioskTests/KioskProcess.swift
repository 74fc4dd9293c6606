#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `audit-station kiosk` as a child process on 127.0.0.1 over a temporary database, as a
/// kiosk PC runs it. The emulated camera's library, when given, is preloaded into this child
/// only. Stopped with SIGTERM (then SIGKILL) when the test is done.
final class KioskProcess: @unchecked Sendable {
    let folder: URL
    let database: String
    private(set) var port = 0
    private var process: Process?
    private let log: URL

    /// The built executable next to the test bundle.
    static let executable: URL = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let candidates = [URL(fileURLWithPath: executable).deletingLastPathComponent(),
                          URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                          Bundle.main.bundleURL.deletingLastPathComponent()]
        for folder in candidates where FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("audit-station").path) {
            return folder.appendingPathComponent("audit-station")
        }
        return candidates[0].appendingPathComponent("audit-station")
    }()

    /// A fresh database holding `inventory` (asset_tag, name, country rows).
    init(inventory: [(tag: String, name: String, country: String)]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = folder.appendingPathComponent("station.sqlite").path
        log = folder.appendingPathComponent("kiosk.log")
        if !inventory.isEmpty {
            let csv = folder.appendingPathComponent("inventory.csv")
            try (["asset_tag,name,country"] + inventory.map { "\($0.tag),\($0.name),\($0.country)" })
                .joined(separator: "\n").write(to: csv, atomically: true, encoding: .utf8)
            try run(["assets", "import", csv.path])
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Runs another command on the same database to completion; its standard output.
    @discardableResult
    func run(_ arguments: [String], input: String = "") throws -> String {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["--database", database] + arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let errors = Locked(Data())
        let reader = Thread { errors.set(stderr.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        guard process.terminationStatus == 0 else {
            throw KioskTestError("audit-station \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: errors.get(), as: UTF8.self))")
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Starts the kiosk and waits until it listens. `arguments` go after `kiosk`.
    func start(_ arguments: [String] = ["--no-camera"], environment: [String: String] = [:], port: Int = 0) throws {
        try launch(["kiosk", "--port", String(port)] + arguments, environment: environment, what: "the kiosk") { log in
            log.firstMatch(of: /Kiosk on http:\/\/[^:]+:(\d+)/).flatMap { Int($0.1) }
        }
    }

    /// Runs `serve` over this database (the audit API for connected kiosks) and waits until it
    /// listens; `kill()` stops it at once.
    func serve(port: Int = 0) throws {
        let chosen = port == 0 ? try freeTCPPort() : port
        try launch(["serve", "--port", String(chosen)], environment: [:], what: "serve") { log in
            log.contains("Serving the audit API") ? chosen : nil
        }
    }

    /// Starts a long-running command with its output in the log, and waits up to 30 s until
    /// `listening` finds the port in the log.
    private func launch(_ arguments: [String], environment: [String: String], what: String,
                        listening: (String) -> Int?) throws {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = ["--database", database] + arguments
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let bound = listening(logText) {
                port = bound
                return
            }
            guard process.isRunning else { throw KioskTestError("\(what) exited \(process.terminationStatus): \(logText)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw KioskTestError("\(what) did not start within 30 s: \(logText)")
    }

    /// SIGKILL: the process ends at once, as in a crash or a power cut.
    func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    var isRunning: Bool { process?.isRunning ?? false }

    /// SIGTERM, then SIGKILL after 10 s; returns the exit status.
    @discardableResult
    func stop() -> Int32? {
        guard let process, process.isRunning else { return process?.terminationStatus }
        Glibc.kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// One call to the kiosk, as the page makes it.
    func call(_ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:]) async throws -> (status: Int, body: [String: Any], text: String) {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = method
        request.timeoutInterval = 20
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("1", forHTTPHeaderField: "X-Kiosk")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (status, body, String(decoding: data, as: UTF8.self))
    }
}

struct KioskTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A value shared with a reader thread.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.withLock { value } }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
}

/// Parses a JSON object printed by a command.
func jsonObject(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}
