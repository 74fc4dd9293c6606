#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation
import Testing
import TestKit
#if canImport(Glibc)
    import Glibc
#endif

/// `audit-station kiosk` as a child process on 127.0.0.1 over a temporary database, as a
/// kiosk PC runs it. The emulated camera's library, when given, is preloaded into this child
/// only. Stopped with SIGTERM (then SIGKILL) when the test is done.
public final class KioskProcess: @unchecked Sendable {
    public let folder: URL
    public let database: String
    public private(set) var port = 0
    private let child = Locked<RunningChild?>(nil)
    private let log: URL

    /// The built executable next to the test bundle.
    public static let executable: URL = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let candidates = [
            URL(fileURLWithPath: executable).deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent()
        ]
        for folder in candidates where FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent("audit-station").path) {
            return folder.appendingPathComponent("audit-station")
        }
        return candidates[0].appendingPathComponent("audit-station")
    }()

    /// An asset of the test inventory, with its location.
    public struct Row: Sendable {
        public var tag: String
        public var name: String
        public var country: String
        public var location: String?

        public init(tag: String, name: String, country: String, location: String? = nil) {
            self.tag = tag
            self.name = name
            self.country = country
            self.location = location
        }
    }

    /// A fresh database holding `inventory` (asset_tag, name, country rows).
    public convenience init(inventory: [(tag: String, name: String, country: String)]) async throws {
        try await self.init(rows: inventory.map { Row(tag: $0.tag, name: $0.name, country: $0.country) })
    }

    /// A fresh database holding `rows` (asset_tag, name, country, location).
    public init(rows inventory: [Row]) async throws {
        folder = Scratch.root.appendingPathComponent("kiosk-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        database = folder.appendingPathComponent("station.sqlite").path
        log = folder.appendingPathComponent("kiosk.log")
        if !inventory.isEmpty {
            let csv = folder.appendingPathComponent("inventory.csv")
            try CSVFixture("asset_tag", "name", "country", "location")
                .rows(inventory) { [$0.tag, $0.name, $0.country, $0.location ?? ""] }
                .write(to: csv)
            try await run(["assets", "import", csv.path])
        }
    }

    /// A test that ends without `stop()` leaves nothing running: SIGKILL, never a wait (the
    /// child's own task reaps it).
    deinit {
        child.get()?.send(SIGKILL)
        try? FileManager.default.removeItem(at: folder)
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Runs another command on the same database to completion; its standard output.
    @discardableResult
    public func run(_ arguments: [String], input: String = "") async throws -> String {
        let output = try await Child.run(Self.executable.path, ["--database", database] + arguments, input: Data(input.utf8))
        guard output.status == 0 else {
            throw KioskTestError("audit-station \(arguments.joined(separator: " ")) exited \(output.status): \(output.stderr)")
        }
        return output.stdout
    }

    /// Starts the kiosk and waits until it listens. `arguments` go after `kiosk`. The page asks
    /// who is scanning when nobody has said; unless `askName`, the kiosk is told (`--user Kim`).
    public func start(_ arguments: [String] = ["--no-camera"], environment: [String: String] = [:], port: Int = 0, askName: Bool = false)
        async throws
    {
        let named = askName || arguments.contains("--user") ? arguments : arguments + ["--user", "Kim"]
        try await launch(["kiosk", "--port", String(port)] + named, environment: environment, what: "the kiosk") { log in
            log.firstMatch(of: /Kiosk on http:\/\/[^:]+:(\d+)/).flatMap { Int($0.1) }
        }
    }

    /// `serve` over a database of `rows` with the administrator ann@example.com, and a kiosk's
    /// database logged in to it (not started).
    public static func connected(rows: [Row]) async throws -> (server: KioskProcess, kiosk: KioskProcess) {
        let server = try await KioskProcess(rows: rows)
        try await server.run(
            ["users", "create", "--email", "ann@example.com", "--name", "Ann", "--type", "ADMIN", "--password-stdin"],
            input: "secret-pass\n")
        try await server.serve()
        let kiosk = try await KioskProcess(inventory: [])
        try await kiosk.run(["login", "--server", server.baseURL, "--email", "ann@example.com", "--password-stdin"], input: "secret-pass\n")
        return (server, kiosk)
    }

    /// Runs `serve` over this database (the audit API for connected kiosks) and waits until it
    /// listens; `kill()` stops it at once.
    public func serve(port: Int = 0, arguments: [String] = []) async throws {
        let chosen = port == 0 ? try Loopback.freePort() : port
        try await launch(["serve", "--port", String(chosen)] + arguments, environment: [:], what: "serve") { log in
            log.contains("Serving the audit API") ? chosen : nil
        }
    }

    /// Runs `office` over this database (the back office of a standalone station) and waits
    /// until it listens.
    public func office(port: Int = 0) async throws {
        try await launch(["office", "--port", String(port)], environment: [:], what: "office") { log in
            log.firstMatch(of: /back office of .* is on http:\/\/[^:]+:(\d+)/).flatMap { Int($0.1) }
        }
    }

    /// Starts a long-running command with its output in the log, and waits up to 30 s until
    /// `listening` finds the port in the log.
    private func launch(
        _ arguments: [String], environment: [String: String], what: String,
        listening: (String) -> Int?
    ) async throws {
        let started = try await Child.start(
            Self.executable.path, ["--database", database] + arguments,
            environment: environment, log: log)
        child.set(started)
        do {
            port = try await started.waitForLog(what, listening)
        } catch let error as ChildError {
            throw KioskTestError(error.description)
        }
    }

    /// SIGKILL: the process ends at once, as in a crash or a power cut.
    public func kill() async {
        await child.get()?.kill9()
    }

    /// SIGSTOP: the process stops answering, its sockets still open (a server that hangs, or a
    /// network that drops its packets); `resume` sends SIGCONT.
    public func pause() {
        if let pid = child.get()?.pid { Foundation.kill(pid, SIGSTOP) }
    }

    public func resume() {
        if let pid = child.get()?.pid { Foundation.kill(pid, SIGCONT) }
    }

    public var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    public var isRunning: Bool { child.get()?.isRunning ?? false }

    /// SIGTERM, then SIGKILL after 10 s; returns the exit status.
    @discardableResult
    public func stop() async -> Int32? {
        await child.get()?.stop()
    }

    /// One call to the kiosk, as the page makes it.
    public func call(_ method: String, _ path: String, json: String? = nil, headers: [String: String] = [:]) async throws -> (
        status: Int, body: [String: Any], text: String
    ) {
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

public struct KioskTestError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Parses a JSON object printed by a command.
public func jsonObject(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}
