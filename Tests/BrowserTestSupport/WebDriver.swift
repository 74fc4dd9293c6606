// A small W3C WebDriver client for the kiosk's browser tests: chromedriver + headless Chromium.
//
// Foundation only (HTTP over a 127.0.0.1 socket; chromedriver through TestKit's swift-subprocess
// child). Every wait is bounded, and Chromedriver.stop() kills chromedriver and every Chromium
// process it started (deinit sends SIGKILL to what is left, without waiting).
//
//     try await SharedBrowser.with(width: 1280, height: 720) { browser in
//         try await browser.open("http://127.0.0.1:\(port)/")
//         try await browser.find("#tag").sendKeys("A1" + Element.enter)
//         try await browser.waitUntil("the result shows A1", js: "text('#result') === 'A1'")
//         #expect(try await browser.consoleErrors().isEmpty)
//     }

import Foundation
import TestKit
import Testing
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - JSON values

extension JSONValue {
    /// The web element reference in this value, if it is one (`{"element-6066-…": id}`).
    public var elementID: String? { self[Element.identifierKey]?.stringValue }
}

// MARK: - Errors

/// An error answered by chromedriver (`code` is the W3C error code, e.g. "no such element"), or one of ours:
/// "chromedriver startup", "transport", "wait timeout", "bad response".
public struct WebDriverError: Error, CustomStringConvertible, Sendable {
    public var code: String
    public var message: String
    /// The command that failed, e.g. "POST /session/…/element".
    public var command: String?

    public init(_ code: String, _ message: String, command: String? = nil) {
        self.code = code
        self.message = message
        self.command = command
    }

    /// True for errors that chromedriver answered (the browser is alive and the condition may change).
    public var isFromDriver: Bool { !["chromedriver startup", "transport", "wait timeout", "bad response"].contains(code) }

    public var description: String {
        "WebDriver error [\(code)]: \(message)" + (command.map { " (in \($0))" } ?? "")
    }
}

// MARK: - Sockets

private enum Socket {
    static func tcp() throws -> Int32 {
        #if canImport(Darwin)
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw WebDriverError("transport", "socket() failed: errno \(errno)") }
        #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return fd
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    static func setTimeout(_ fd: Int32, _ seconds: Double) {
        let whole = max(0, seconds.rounded(.down))
        var value = timeval(tv_sec: .init(whole), tv_usec: .init((max(0, seconds) - whole) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }
}

// MARK: - HTTP

/// The JSON-over-HTTP wire to one chromedriver.
///
/// A tiny HTTP/1.1 client over a socket rather than URLSession: on Linux, FoundationNetworking's
/// URLSession fails every chromedriver answer with "Failed writing header", because chromedriver writes
/// headers without a space after the colon (swift-corelibs-foundation issue #4965).
public struct WebDriverWire: Sendable {
    public let port: Int

    /// Sends one command and returns its `value`; throws the driver's error, if any.
    @discardableResult
    public func send(_ method: String, _ path: String, _ body: JSONValue? = nil, timeout: Double = 60) async throws -> JSONValue {
        let command = "\(method) \(path)"
        let payload: Data? = try body?.jsonData() ?? (method == "POST" ? Data("{}".utf8) : nil)
        let port = port
        // Blocking socket I/O on a thread of its own for each command: not on the (2-thread)
        // cooperative pool, nor on a global Dispatch queue. On Linux those run on as many threads
        // as there are cores, and add one for blocked ones only once a second (libdispatch's
        // workqueue monitor): with several browsers' commands blocked at once (a page-side wait
        // answers after up to 8 s), the next command of any browser waited for it.
        let (status, data): (Int, Data) = try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        try LoopbackHTTP.exchange(port: port, method: method, path: path, body: payload, timeout: timeout)
                    })
            }.start()
        }
        guard let json = try? JSONValue(parsing: data) else {
            throw WebDriverError(
                "bad response", "HTTP \(status): \(String(decoding: data.prefix(500), as: UTF8.self))",
                command: command)
        }
        let value = json["value"] ?? .null
        if let code = value["error"]?.stringValue {
            throw WebDriverError(code, value["message"]?.stringValue ?? "(no message)", command: command)
        }
        guard (200..<300).contains(status) else {
            throw WebDriverError("bad response", "HTTP \(status): \(json)", command: command)
        }
        return value
    }
}

private enum LoopbackHTTP {
    /// One request on a fresh connection to 127.0.0.1:port; returns the status and the body.
    static func exchange(
        port: Int, method: String, path: String, body: Data?,
        timeout: Double
    ) throws -> (Int, Data) {
        let command = "\(method) \(path)"
        func failure(_ what: String) -> WebDriverError {
            WebDriverError("transport", "\(what) (127.0.0.1:\(port))", command: command)
        }
        let deadline = Date().addingTimeInterval(timeout)
        let fd = try Socket.tcp()
        defer { close(fd) }
        Socket.setTimeout(fd, timeout)
        var address = Socket.loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw failure("connect failed: \(String(cString: strerror(errno)))") }

        var request = Data("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: application/json\r\nConnection: close\r\n".utf8)
        if let body {
            request.append(Data("Content-Type: application/json; charset=utf-8\r\nContent-Length: \(body.count)\r\n".utf8))
        }
        request.append(Data("\r\n".utf8))
        if let body { request.append(body) }
        #if canImport(Darwin)
            let flags: Int32 = 0
        #else
            let flags = Int32(MSG_NOSIGNAL)
        #endif
        var sent = 0
        while sent < request.count {
            let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, request.count - sent, flags) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw failure("send failed: \(String(cString: strerror(errno)))") }
            sent += n
        }

        var received = Data()
        var headerEnd: Range<Data.Index>?
        var status = 0
        var contentLength: Int?
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let headerEnd, let contentLength, received.count - headerEnd.upperBound >= contentLength { break }
            let n = recv(fd, &chunk, chunk.count, 0)
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) || Date() > deadline {
                throw WebDriverError("transport", "no complete answer within \(timeout) s (127.0.0.1:\(port))", command: command)
            }
            guard n >= 0 else { throw failure("recv failed: \(String(cString: strerror(errno)))") }
            if n == 0 { break } // EOF
            received.append(contentsOf: chunk[0..<n])
            if headerEnd == nil, let end = received.firstRange(of: Data("\r\n\r\n".utf8)) {
                headerEnd = end
                let lines = String(decoding: received[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                let statusFields = lines.first?.split(separator: " ") ?? []
                status = statusFields.count > 1 ? Int(statusFields[1]) ?? 0 : 0
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    if line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" {
                        contentLength = Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                    }
                }
            }
        }
        guard let headerEnd, status > 0 else {
            throw failure("malformed HTTP answer: \(String(decoding: received.prefix(200), as: UTF8.self))")
        }
        var body = Data(received[headerEnd.upperBound...])
        if let contentLength {
            guard body.count >= contentLength else { throw failure("connection closed mid-answer") }
            body = body.prefix(contentLength)
        }
        return (status, body)
    }
}

// MARK: - Processes (Chromium is started by chromedriver, not by us)

private enum ProcessTable {
    struct Entry {
        let pid: Int32
        let ppid: Int32
        let state: Character
    }

    /// The live processes whose command line contains `marker`, and the live descendants of `root`.
    static func processes(containing marker: String, orDescendingFrom root: Int32?) -> [Int32] {
        #if os(Linux)
            let entries = table()
            var children: [Int32: [Int32]] = [:]
            for entry in entries.values { children[entry.ppid, default: []].append(entry.pid) }
            var found = Set<Int32>()
            if let root {
                var stack = children[root] ?? []
                while let pid = stack.popLast() {
                    if found.insert(pid).inserted { stack.append(contentsOf: children[pid] ?? []) }
                }
            }
            let markerBytes = Array(marker.utf8)
            for pid in entries.keys where !found.contains(pid) {
                guard let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !cmdline.isEmpty else { continue }
                if Array(cmdline).firstRange(of: markerBytes) != nil { found.insert(pid) }
            }
            return found.filter { isAlive($0) }.sorted()
        #else
            return []
        #endif
    }

    /// Alive means: exists and is not a zombie (a zombie is dead; it only waits for its parent to reap it).
    static func isAlive(_ pid: Int32) -> Bool {
        #if os(Linux)
            guard let entry = entry(pid) else { return false }
            return entry.state != "Z" && entry.state != "X"
        #else
            return kill(pid, 0) == 0
        #endif
    }

    #if os(Linux)
        private static func table() -> [Int32: Entry] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            var result: [Int32: Entry] = [:]
            for name in names {
                guard let pid = Int32(name), let entry = entry(pid) else { continue }
                result[pid] = entry
            }
            return result
        }

        private static func entry(_ pid: Int32) -> Entry? {
            // "pid (comm) state ppid …"; comm may contain spaces and parentheses, so split after the last ")".
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
            let text = String(decoding: data, as: UTF8.self)
            guard let close = text.lastIndex(of: ")") else { return nil }
            let fields = text[text.index(after: close)...].split(separator: " ")
            guard fields.count >= 2, let state = fields[0].first, let ppid = Int32(fields[1]) else { return nil }
            return Entry(pid: pid, ppid: ppid, state: state)
        }
    #endif

    /// SIGTERM, wait up to `grace` seconds, then SIGKILL whatever is left and wait up to 2 s more.
    static func terminate(_ pids: [Int32], grace: Double = 2) async {
        guard !pids.isEmpty else { return }
        for pid in pids { kill(pid, SIGTERM) }
        if await waitGone(pids, timeout: grace) { return }
        for pid in pids where isAlive(pid) { kill(pid, SIGKILL) }
        _ = await waitGone(pids, timeout: 2)
    }

    static func waitGone(_ pids: [Int32], timeout: Double) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while pids.contains(where: isAlive) {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}

// MARK: - Chromedriver

/// One chromedriver child process on a free port of 127.0.0.1, and the browsers it starts.
///
/// Every browser gets a profile under `workDirectory`, whose path is in the command line of all its
/// processes, so `stop()` finds and kills them even after chromedriver is gone (killing chromedriver
/// alone leaves Chromium running).
public final class Chromedriver: @unchecked Sendable {
    public let port: Int
    public let baseURL: URL
    /// Holds the browser profiles and chromedriver.log; removed by stop().
    public let workDirectory: URL
    public var logURL: URL { workDirectory.appendingPathComponent("chromedriver.log") }
    public var pid: Int32 { process.pid }
    /// Started, not stopped, and chromedriver still running.
    public var isRunning: Bool { process.isRunning && !lock.withLock { stopped } }
    public let wire: WebDriverWire

    private let process: RunningChild
    private let lock = NSLock()
    private var stopped = false
    private var sessionCount = 0

    private init(process: RunningChild, port: Int, workDirectory: URL) {
        self.process = process
        self.port = port
        self.workDirectory = workDirectory
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.wire = WebDriverWire(port: port)
    }

    /// A driver dropped without `stop()`: SIGKILL to its browsers and itself, never a wait.
    deinit {
        guard !stopped else { return }
        killNow()
    }

    /// SIGKILL to its browsers and itself, and its folder removed, at once (no wait): for `deinit`,
    /// and for the shared browser at the test process's exit.
    public func killNow() {
        for pid in ProcessTable.processes(containing: workDirectory.path, orDescendingFrom: process.pid) { kill(pid, SIGKILL) }
        process.send(SIGKILL)
        try? FileManager.default.removeItem(at: workDirectory)
    }

    /// Gives its browsers' processes the niceness of the running test's chain, where they have
    /// less (`ThreadsExecutor.prioritize`): Chromium runs the page a test drives in a renderer
    /// at niceness 0 (5 once in the background), whatever chromedriver was started with, so a
    /// chain's pages had the same share of the cores as every test beside the chains. Called
    /// when a test borrows a chain's browser and after each navigation, which may start a renderer.
    public func prioritizeBrowsers() {
        guard ThreadsExecutor.preferred != nil else { return }
        for pid in ProcessTable.processes(containing: workDirectory.path, orDescendingFrom: process.pid) { ThreadsExecutor.prioritize(pid) }
    }

    /// Every origin a session of this driver opened (`BrowserSession.open`), for clearing their storage.
    private var openedOrigins = Set<String>()

    public func noteOpened(_ url: String) {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme, let host = parts.host, scheme.hasPrefix("http") else {
            return
        }
        let origin = "\(scheme)://\(host)" + (parts.port.map { ":\($0)" } ?? "")
        lock.withLock { _ = openedOrigins.insert(origin) }
    }

    /// The origins opened since the last call, which forgets them: once cleared, an origin holds
    /// nothing until a session opens it again, and then it is noted again. Clearing every origin
    /// ever opened before each test cost the browser a call per origin per test, which grew with
    /// the square of the tests.
    public func takeOpenedOrigins() -> [String] {
        lock.withLock {
            defer { openedOrigins.removeAll() }
            return openedOrigins.sorted()
        }
    }

    /// Starts chromedriver and waits until `GET /status` says it is ready.
    public static func start(executable: String = "/usr/bin/chromedriver", timeout: Double = 90) async throws -> Chromedriver {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw WebDriverError("chromedriver startup", "\(executable) is not an executable file (apt-get install chromium-driver)")
        }
        var lastError: (any Error)?
        // A port that was free a moment ago may be taken by the time chromedriver binds it: retry.
        for _ in 0..<3 {
            do {
                return try await launch(executable: executable, timeout: timeout)
            } catch let error as WebDriverError where error.message.contains("exited") {
                lastError = error
            }
        }
        throw lastError ?? WebDriverError("chromedriver startup", "could not start \(executable)")
    }

    private static func launch(executable: String, timeout: Double) async throws -> Chromedriver {
        // Below the ephemeral range: a shared chromedriver lives the whole run, and no port that
        // another test is given by `freePort()` (a dead server's, a server restarted on its old
        // port) or uses as a client may be this one.
        let port = try Loopback.longLivedPort()
        let workDirectory = Scratch.root
            .appendingPathComponent("webdriver-\(UUID().uuidString.prefix(8).lowercased())", isDirectory: true)
        try FileManager.default.createDirectory(at: workDirectory, withIntermediateDirectories: true)
        let logURL = workDirectory.appendingPathComponent("chromedriver.log")
        // swift-subprocess starts the child with an empty signal mask, so chromedriver (and the
        // Chromium it starts) can be terminated although the pool's threads block those signals.
        let process: RunningChild
        do {
            process = try await Child.start(executable, ["--port=\(port)"], log: logURL)
        } catch {
            try? FileManager.default.removeItem(at: workDirectory)
            throw WebDriverError("chromedriver startup", "could not run \(executable): \(error)")
        }
        let driver = Chromedriver(process: process, port: port, workDirectory: workDirectory)
        // From here on, driver.stop() (or deinit) cleans up.
        let started = ContinuousClock.now
        while true {
            if !process.isRunning {
                let output = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
                let status = await process.wait()
                await driver.stop()
                throw WebDriverError(
                    "chromedriver startup",
                    "chromedriver exited with status \(status) on port \(port): \(output.suffix(1000))")
            }
            if let status = try? await driver.wire.send("GET", "/status", timeout: 2), status["ready"]?.boolValue == true {
                return driver
            }
            if ContinuousClock.now - started > .seconds(timeout) {
                let output = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
                await driver.stop()
                throw WebDriverError(
                    "chromedriver startup",
                    "chromedriver on port \(port) was not ready after \(timeout) s: \(output.suffix(1000))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The Chromium flags of every session (and `--window-size`).
    public static let defaultArguments = [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--autoplay-policy=no-user-gesture-required", "--use-fake-ui-for-media-stream",
        "--no-first-run", "--no-default-browser-check", "--disable-background-networking"
    ]

    /// Starts a headless Chromium (`POST /session`) with a fresh profile and browser console logging, its
    /// viewport (`innerWidth` × `innerHeight`, and screenshots) `width` × `height` CSS pixels.
    public func session(
        width: Int = 1280, height: Int = 720, arguments extra: [String] = [],
        binary: String? = nil, timeout: Double = 60
    ) async throws -> BrowserSession {
        let profile: URL = try lock.withLock {
            guard !stopped else { throw WebDriverError("transport", "chromedriver was stopped") }
            sessionCount += 1
            return workDirectory.appendingPathComponent("profile-\(sessionCount)", isDirectory: true)
        }
        var options: [String: JSONValue] = [
            "args": .array(
                (Self.defaultArguments + ["--window-size=\(width),\(height)", "--user-data-dir=\(profile.path)"]
                    + extra).map { .string($0) })
        ]
        if let binary { options["binary"] = .string(binary) }
        let capabilities: JSONValue = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    "goog:chromeOptions": .object(options),
                    "goog:loggingPrefs": ["browser": "ALL"],
                    "timeouts": ["implicit": 0, "pageLoad": 30_000, "script": 10_000],
                    "unhandledPromptBehavior": "dismiss and notify"
                ]
            ]
        ]
        let value = try await wire.send("POST", "/session", capabilities, timeout: timeout)
        guard let id = value["sessionId"]?.stringValue else {
            throw WebDriverError("bad response", "POST /session answered no sessionId: \(value)")
        }
        let browser = BrowserSession(
            id: id, driver: self, profile: profile,
            browserPID: value["capabilities"]?["goog:processID"]?.intValue.map { Int32($0) })
        do {
            try await browser.setViewport(width: width, height: height)
        } catch {
            await browser.quit()
            throw error
        }
        return browser
    }

    /// Kills every browser it started and chromedriver itself, and removes the profiles. Idempotent; waits ≤ ~8 s.
    public func stop() async {
        let alreadyStopped = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        guard !alreadyStopped else { return }
        let root: Int32? = process.isRunning ? process.pid : nil
        // Browsers first (found by their profile path, or as chromedriver's descendants), then chromedriver.
        let browsers = ProcessTable.processes(containing: workDirectory.path, orDescendingFrom: root)
            .filter { $0 != root }
        await ProcessTable.terminate(browsers)
        await process.stop(grace: .seconds(2))
        try? FileManager.default.removeItem(at: workDirectory)
    }
}

// MARK: - One browser for each browser chain

/// The chromedriver and Chromium that a browser chain's tests take turns on: one for the kiosk's
/// (`InBrowser`), one for the back office's (`InOfficeBrowser`, through `BrowserChain(.office)`)
/// and one for the kiosk's second chain (`InSecondBrowser`, through `BrowserChain(.second)`).
///
/// Starting chromedriver and a browser costs about 2 s, and a chain has up to 25 tests one after
/// another. So a test borrows its chain's browser (`SharedBrowser.with`), and
/// each borrower starts from what a fresh browser would give it:
/// - a new tab, every older one closed (sessionStorage lives with a tab);
/// - the storage of every origin a test opened cleared (localStorage, where the kiosk keeps its
///   unsent scans, IndexedDB, cookies, caches): a kiosk on a port an earlier test used starts empty;
/// - the console drained, and the viewport sized.
/// A test that throws gives back a browser that is quit, so the next one starts a new one: a failure
/// never carries state forward. The browser is killed when the test process exits.
public actor SharedBrowser {
    /// The kiosk chain's browser (`InBrowser`).
    public static let kiosk = SharedBrowser()
    /// The back office chain's browser (`InOfficeBrowser`): a chain of its own beside the kiosk's.
    public static let office = SharedBrowser()
    /// The second kiosk chain's browser (`InSecondBrowser`).
    public static let second = SharedBrowser()
    /// The third chain's browser (`InThirdBrowser`): the back office's screens and the kiosk's locations.
    public static let third = SharedBrowser()
    /// The browser of the suites of `TimingSensitive` that drive one.
    public static let timing = SharedBrowser()
    /// The browser of the chain the current test belongs to (`BrowserChain` picks another than the kiosk's).
    @TaskLocal public static var current: SharedBrowser = kiosk

    private var driver: Chromedriver?
    private var session: BrowserSession?
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// The Chromium flags of this browser beyond `Chromedriver.defaultArguments`, made when it starts.
    private let arguments: @Sendable () throws -> [String]

    /// A browser of its own for the tests run under `$current.withValue(…)`, started with the
    /// flags `arguments` makes (a fake camera's file, say) when a test first borrows it.
    public init(arguments: @escaping @Sendable () throws -> [String] = { [] }) {
        self.arguments = arguments
    }

    /// Runs `body` with the shared browser, its viewport `width` × `height`.
    public static func with<T>(width: Int = 1280, height: Int = 720, _ body: (BrowserSession) async throws -> T) async throws -> T {
        let shared = current
        let session = try await shared.borrow(width: width, height: height)
        do {
            let result = try await body(session)
            await shared.giveBack(healthy: true)
            return result
        } catch {
            let driverState = "\(error)".contains("[transport]") ? await shared.driverState() : nil
            await shared.giveBack(healthy: false)
            guard let driverState else { throw error }
            throw WebDriverError("transport", "\(error)\n\(driverState)")
        }
    }

    /// Whether chromedriver still runs, and the end of its log: why a command got no answer.
    private func driverState() -> String {
        guard let driver else { return "no chromedriver" }
        let log = (try? String(contentsOf: driver.logURL, encoding: .utf8)) ?? "(no log)"
        return "chromedriver \(driver.isRunning ? "still runs" : "has exited"); the end of its log:\n\(log.suffix(3000))"
    }

    private func borrow(width: Int, height: Int) async throws -> BrowserSession {
        while busy { await withCheckedContinuation { waiting.append($0) } }
        busy = true
        do {
            let session = try await ready()
            try await session.setViewport(width: width, height: height)
            session.driver.prioritizeBrowsers()
            return session
        } catch {
            await giveBack(healthy: false)
            throw error
        }
    }

    private func giveBack(healthy: Bool) async {
        if !healthy, let session {
            self.session = nil
            await session.quit()
        }
        busy = false
        if !waiting.isEmpty { waiting.removeFirst().resume() }
    }

    /// The session, new or reset to a fresh tab with the opened origins' storage cleared.
    private func ready() async throws -> BrowserSession {
        let driver = try await runningDriver()
        if let session {
            do {
                try await session.freshTab()
                for origin in driver.takeOpenedOrigins() {
                    try await session.devTools("Storage.clearDataForOrigin", ["origin": .string(origin), "storageTypes": "all"])
                }
                _ = try await session.consoleLogs()
                return session
            } catch {
                self.session = nil
                await session.quit()
            }
        }
        let session = try await driver.session(arguments: try arguments())
        self.session = session
        return session
    }

    private func runningDriver() async throws -> Chromedriver {
        if let driver, driver.isRunning { return driver }
        if let driver { await driver.stop() }
        let started = try await Chromedriver.start()
        driver = started
        SharedBrowserExit.register(started, for: self)
        return started
    }
}

/// Kills the shared browsers when the test process exits (no test is left to give them back).
private enum SharedBrowserExit {
    nonisolated(unsafe) private static var drivers: [ObjectIdentifier: Chromedriver] = [:]
    private static let lock = NSLock()
    nonisolated(unsafe) private static var registered = false

    /// Keeps `driver` as `browser`'s, in place of the one it had before.
    static func register(_ driver: Chromedriver, for browser: SharedBrowser) {
        lock.withLock {
            drivers[ObjectIdentifier(browser)] = driver
            guard !registered else { return }
            registered = true
            atexit { for driver in SharedBrowserExit.lock.withLock({ Array(SharedBrowserExit.drivers.values) }) { driver.killNow() } }
        }
    }
}

// MARK: - Browser session

/// One headless Chromium controlled over WebDriver.
public struct BrowserSession: Sendable {
    public let id: String
    public let driver: Chromedriver
    /// The profile directory (`--user-data-dir`), inside `driver.workDirectory`.
    public let profile: URL
    /// Chromium's browser process (from the `goog:processID` capability).
    public let browserPID: Int32?

    public var wire: WebDriverWire { driver.wire }
    private var path: String { "/session/\(id)" }

    /// Sends any WebDriver command under this session, e.g. `command("POST", "/window/rect", ["width": 800])`.
    @discardableResult
    public func command(_ method: String, _ subpath: String, _ body: JSONValue? = nil, timeout: Double = 60) async throws -> JSONValue {
        try await wire.send(method, path + subpath, body, timeout: timeout)
    }

    // Navigation

    /// Navigates and waits for the page load (pageLoad timeout 30 s).
    public func open(_ url: String) async throws {
        driver.noteOpened(url)
        try await command("POST", "/url", ["url": .string(url)])
        driver.prioritizeBrowsers()
    }
    public func currentURL() async throws -> String { try await command("GET", "/url").stringValue ?? "" }
    public func title() async throws -> String { try await command("GET", "/title").stringValue ?? "" }
    public func source() async throws -> String { try await command("GET", "/source").stringValue ?? "" }
    public func refresh() async throws { try await command("POST", "/refresh") }
    public func back() async throws { try await command("POST", "/back") }

    /// Resizes the window so that the viewport (`innerWidth` × `innerHeight`) is `width` × `height`:
    /// in `--headless=new`, `--window-size` and `/window/rect` size the window, toolbar included.
    /// The page learns a resize a frame or more after `/window/rect` answers, so each resize waits
    /// (up to 2 s) for the page's size to move before it measures again: read at once, the old
    /// size made the next resize overshoot, and three tries under load ended one frame short.
    public func setViewport(width: Int, height: Int) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(15)
        var inner = try await viewport()
        while inner != [width, height] {
            guard clock.now < deadline else {
                throw WebDriverError("bad response", "the viewport stays \(inner) instead of [\(width), \(height)]")
            }
            let rect = try await command("GET", "/window/rect")
            guard let outerWidth = rect["width"]?.intValue, let outerHeight = rect["height"]?.intValue else {
                throw WebDriverError("bad response", "no window size in \(rect)")
            }
            try await command(
                "POST", "/window/rect",
                [
                    "width": .number(Double(outerWidth + width - inner[0])),
                    "height": .number(Double(outerHeight + height - inner[1]))
                ])
            let before = inner
            let settled = clock.now + .seconds(2)
            inner = try await viewport()
            while inner == before && inner != [width, height] && clock.now < settled {
                try await Task.sleep(for: .milliseconds(20))
                inner = try await viewport()
            }
        }
    }

    /// The page's `[innerWidth, innerHeight]`.
    private func viewport() async throws -> [Int] {
        let inner = try await execute("return [window.innerWidth, window.innerHeight]")
        guard let innerWidth = inner[0]?.intValue, let innerHeight = inner[1]?.intValue else {
            throw WebDriverError("bad response", "no viewport size in \(inner)")
        }
        return [innerWidth, innerHeight]
    }

    /// Opens a new tab, switches to it and closes every other one: a page with nothing of the
    /// pages before it (sessionStorage belongs to a tab).
    public func freshTab() async throws {
        let opened = try await command("POST", "/window/new", ["type": "tab"])
        guard let handle = opened["handle"]?.stringValue else { throw WebDriverError("bad response", "no new tab in \(opened)") }
        for old in try await command("GET", "/window/handles").arrayValue?.compactMap(\.stringValue) ?? [] where old != handle {
            try await command("POST", "/window", ["handle": .string(old)])
            try await command("DELETE", "/window")
        }
        try await command("POST", "/window", ["handle": .string(handle)])
    }

    /// Runs a Chrome DevTools Protocol command through chromedriver.
    @discardableResult
    public func devTools(_ method: String, _ parameters: JSONValue = [:]) async throws -> JSONValue {
        try await command("POST", "/goog/cdp/execute", ["cmd": .string(method), "params": parameters])
    }

    // Elements

    /// The first element matching `css`; throws "no such element" naming the selector when there is none.
    public func find(_ css: String) async throws -> Element {
        try await Element.find(css, in: self, from: path)
    }

    /// Every element matching `css` (possibly none).
    public func findAll(_ css: String) async throws -> [Element] {
        try await Element.findAll(css, in: self, from: path)
    }

    /// Waits until an element matches `css` (and, if `displayed`, is displayed), and returns it.
    public func waitFor(_ css: String, displayed: Bool = false, timeout: Double = 10) async throws -> Element {
        try await waitUntil(
            timeout: timeout, "an element matching '\(css)'\(displayed ? " to be displayed" : "")",
            js: displayed ? "shown(\(Self.literal(css)))" : "$(\(Self.literal(css))) !== null")
        return try await find(css)
    }

    /// The focused element (`document.activeElement`, the body when nothing is focused).
    public func activeElement() async throws -> Element {
        let value = try await command("GET", "/element/active")
        guard let id = value.elementID else { throw WebDriverError("bad response", "no element in \(value)") }
        return Element(id: id, session: self, selector: ":focus")
    }

    /// The element a script returned, e.g. `session.element(try await session.execute("return document.body"))`.
    public func element(_ value: JSONValue) -> Element? {
        value.elementID.map { Element(id: $0, session: self, selector: "(from a script)") }
    }

    // Scripts

    /// Runs `script` as a function body (`return …` gives the result; arguments are in `arguments`).
    /// Pass elements with `element.json`.
    @discardableResult
    public func execute(_ script: String, _ args: [JSONValue] = []) async throws -> JSONValue {
        try await command("POST", "/execute/sync", ["script": .string(script), "args": .array(args)])
    }

    /// Runs `script` with a callback as its last argument, `arguments[arguments.length - 1]`, and waits for it
    /// (script timeout 10 s).
    @discardableResult
    public func executeAsync(_ script: String, _ args: [JSONValue] = []) async throws -> JSONValue {
        try await command("POST", "/execute/async", ["script": .string(script), "args": .array(args)])
    }

    // Waiting

    /// Polls `condition` until it is true. Errors answered by the driver (no such element, stale element…)
    /// count as false; after `timeout` seconds it throws a "wait timeout" error naming `description`.
    public func waitUntil(
        timeout: Double = 10, poll: Double = 0.05, _ description: String,
        isolation: isolated (any Actor)? = #isolation,
        _ condition: () async throws -> Bool
    ) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        var lastError: WebDriverError?
        while true {
            do {
                if try await condition() { return }
                lastError = nil
            } catch let error as WebDriverError where error.isFromDriver {
                lastError = error
            }
            if clock.now >= deadline {
                throw WebDriverError(
                    "wait timeout",
                    "timed out after \(timeout) s waiting for \(description)"
                        + (lastError.map { "; last error: \($0)" } ?? ""))
            }
            try await Task.sleep(for: .seconds(poll))
        }
    }

    /// Waits in the page until the JavaScript expression `condition` is truthy. The page checks it
    /// on every change of its DOM and of the focus, and every 100 ms for anything else (a script's
    /// variable), and answers once, at most 8 s later: one WebDriver command instead of one (or
    /// two) every 50 ms, each of which costs Chromium and chromedriver several milliseconds of CPU.
    /// The expression may use the helpers of `Self.waitHelpers` (`$`, `shown`, `text`, `attr`,
    /// `count`, `num`, `focusedID`). A page being replaced (a navigation, a reload) answers with an
    /// error, and the wait goes on in the new page.
    public func waitUntil(timeout: Double = 10, _ description: String, js condition: String) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        var lastError: WebDriverError?
        let script =
            Self.waitHelpers + """
                const done = arguments[arguments.length - 1];
                const check = () => { try { return !!(\(condition)); } catch (e) { return false; } };
                if (check()) { done(true); return; }
                let finished = false;
                const finish = (value) => {
                  if (finished) return;
                  finished = true;
                  seen.disconnect(); clearInterval(every); clearTimeout(limit);
                  document.removeEventListener('focusin', recheck, true);
                  done(value);
                };
                const recheck = () => { if (!finished && check()) finish(true); };
                const seen = new MutationObserver(recheck);
                seen.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
                document.addEventListener('focusin', recheck, true);
                const every = setInterval(recheck, 100);
                const limit = setTimeout(() => finish(check()), arguments[0]);
                """
        while true {
            let left = clock.now.duration(to: deadline)
            let slice = min(8.0, max(0.05, Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18))
            do {
                if try await executeAsync(script, [.number((slice * 1000).rounded())]).boolValue == true { return }
                lastError = nil
            } catch let error as WebDriverError where error.isFromDriver {
                lastError = error
                try await Task.sleep(for: .milliseconds(50))
            }
            if clock.now >= deadline {
                throw WebDriverError(
                    "wait timeout",
                    "timed out after \(timeout) s waiting for \(description)"
                        + (lastError.map { "; last error: \($0)" } ?? ""))
            }
        }
    }

    /// Waits until an element matching `css` is displayed (`shown` is false until it exists).
    public func waitUntilShown(_ css: String, timeout: Double = 10, _ description: String) async throws {
        try await waitUntil(timeout: timeout, description, js: "shown(\(Self.literal(css)))")
    }

    /// Waits until no element matching `css` is displayed.
    public func waitUntilHidden(_ css: String, timeout: Double = 10, _ description: String) async throws {
        try await waitUntil(timeout: timeout, description, js: "!shown(\(Self.literal(css)))")
    }

    /// `text` as a JavaScript string literal.
    public static func literal(_ text: String) -> String {
        JSONValue.string(text).description
    }

    /// Functions of the conditions of `waitUntil(js:)`: the first element matching a selector;
    /// whether it is displayed (as WebDriver's "is displayed" decides for the pages here: rendered,
    /// with a box, visible and not transparent); its text as shown (trimmed); an attribute; how
    /// many elements match; the number in its text (its digits, as `number` in the tests reads
    /// it; NaN when there are none); the focused element's id.
    public static let waitHelpers = """
        const $ = (css) => document.querySelector(css);
        const shown = (css) => { const e = $(css); return !!e && e.getClientRects().length > 0
          && e.checkVisibility({ opacityProperty: true, visibilityProperty: true }); };
        const text = (css) => { const e = $(css); return e ? e.innerText.trim() : null; };
        const attr = (css, name) => { const e = $(css); return e ? e.getAttribute(name) : null; };
        const count = (css) => document.querySelectorAll(css).length;
        const num = (css) => { const t = text(css); const d = t === null ? '' : t.replace(/[^0-9]/g, '');
          return d === '' ? NaN : Number(d); };
        const focusedID = () => (document.activeElement && document.activeElement.id) || '';

        """

    // Screenshots

    /// A PNG of the viewport.
    public func screenshot() async throws -> Data {
        let value = try await command("GET", "/screenshot")
        guard let base64 = value.stringValue, let data = Data(base64Encoded: base64) else {
            throw WebDriverError("bad response", "the screenshot is not base64")
        }
        return data
    }

    /// The page printed to PDF (WebDriver's Print Page: A4, with the page's print style).
    public func printPDF() async throws -> Data {
        let value = try await command("POST", "/print", ["page": ["width": 21.0, "height": 29.7], "background": true])
        guard let base64 = value.stringValue, let data = Data(base64Encoded: base64) else {
            throw WebDriverError("bad response", "the PDF is not base64")
        }
        return data
    }

    /// Writes a PNG of the viewport to `path` (creating its directory).
    public func screenshot(to path: String) async throws {
        let data = try await screenshot()
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    // Console

    public struct LogEntry: Sendable, Hashable, CustomStringConvertible {
        public var level: String // "SEVERE", "WARNING", "INFO", "DEBUG"
        public var message: String
        public var source: String? // "javascript", "console-api", "network", …
        public var timestamp: Double // ms since 1970
        public var description: String { "[\(level)] \(message)" }
    }

    /// The browser console entries since the previous call (chromedriver drains its buffer on every read).
    public func consoleLogs() async throws -> [LogEntry] {
        let value = try await command("POST", "/se/log", ["type": "browser"])
        return (value.arrayValue ?? []).map {
            LogEntry(
                level: $0["level"]?.stringValue ?? "", message: $0["message"]?.stringValue ?? "",
                source: $0["source"]?.stringValue, timestamp: $0["timestamp"]?.doubleValue ?? 0)
        }
    }

    /// The SEVERE console entries since the previous read: uncaught exceptions, console.error, failed loads.
    public func consoleErrors() async throws -> [LogEntry] {
        try await consoleLogs().filter { $0.level == "SEVERE" }
    }

    // Ending

    /// Closes the browser (`DELETE /session`, at most 10 s) and kills it if it is still alive. Never throws.
    public func quit() async {
        _ = try? await wire.send("DELETE", path, timeout: 10)
        // Whatever still runs with this profile (the NUL ends the argument: profile-1 is not profile-10).
        await ProcessTable.terminate(ProcessTable.processes(containing: "--user-data-dir=\(profile.path)\u{0}", orDescendingFrom: nil))
        try? FileManager.default.removeItem(at: profile)
    }
}

// MARK: - Element

/// A web element reference of one session.
public struct Element: Sendable, Hashable, CustomStringConvertible {
    public static let identifierKey = "element-6066-11e4-a52e-4f735466cecf"

    // WebDriver key codes for sendKeys.
    public static let enter = "\u{E007}"
    public static let escape = "\u{E00C}"
    public static let tab = "\u{E004}"
    public static let backspace = "\u{E003}"
    public static let delete = "\u{E017}"
    public static let arrowLeft = "\u{E012}"
    public static let arrowUp = "\u{E013}"
    public static let arrowRight = "\u{E014}"
    public static let arrowDown = "\u{E015}"

    public let id: String
    public let session: BrowserSession
    /// How it was found, for error messages.
    public let selector: String

    private var path: String { "/session/\(session.id)/element/\(id)" }
    /// The reference to pass to `execute` as an argument.
    public var json: JSONValue { [Self.identifierKey: .string(id)] }
    public var description: String { "Element(\(selector))" }

    public static func == (lhs: Element, rhs: Element) -> Bool { lhs.id == rhs.id && lhs.session.id == rhs.session.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    @discardableResult
    private func command(_ method: String, _ subpath: String, _ body: JSONValue? = nil) async throws -> JSONValue {
        do {
            return try await session.wire.send(method, path + subpath, body)
        } catch var error as WebDriverError where error.isFromDriver {
            error.message = "\(self): \(error.message)"
            throw error
        }
    }

    public func click() async throws { try await command("POST", "/click") }
    /// Types `text` (use `Element.enter`, `.escape`, `.tab`… for keys) into this element, focusing it first.
    public func sendKeys(_ text: String) async throws { try await command("POST", "/value", ["text": .string(text)]) }
    public func clear() async throws { try await command("POST", "/clear") }
    /// The rendered text (`innerText`-like; empty when hidden).
    public func text() async throws -> String { try await command("GET", "/text").stringValue ?? "" }
    public func tagName() async throws -> String { try await command("GET", "/name").stringValue ?? "" }
    /// The attribute (as in the HTML, or the boolean "true"), nil when absent.
    public func attribute(_ name: String) async throws -> String? { try await command("GET", "/attribute/\(name)").stringValue }
    /// The DOM property, e.g. `property("value")`, `property("checked")`.
    public func property(_ name: String) async throws -> JSONValue { try await command("GET", "/property/\(name)") }
    public func cssValue(_ name: String) async throws -> String { try await command("GET", "/css/\(name)").stringValue ?? "" }
    public func isDisplayed() async throws -> Bool { try await command("GET", "/displayed").boolValue ?? false }
    public func isEnabled() async throws -> Bool { try await command("GET", "/enabled").boolValue ?? false }
    public func isSelected() async throws -> Bool { try await command("GET", "/selected").boolValue ?? false }
    /// True when this element has the focus.
    public func isFocused() async throws -> Bool { try await session.activeElement() == self }

    public func find(_ css: String) async throws -> Element {
        try await Self.find(css, in: session, from: path, within: self)
    }

    public func findAll(_ css: String) async throws -> [Element] {
        try await Self.findAll(css, in: session, from: path, within: self)
    }

    fileprivate static func find(
        _ css: String, in session: BrowserSession, from base: String,
        within parent: Element? = nil
    ) async throws -> Element {
        let scope = parent.map { " inside \($0)" } ?? ""
        let value: JSONValue
        do {
            value = try await session.wire.send("POST", base + "/element", ["using": "css selector", "value": .string(css)])
        } catch var error as WebDriverError where error.code == "no such element" || error.code == "invalid selector" {
            error.message =
                error.code == "no such element"
                ? "no element matches the CSS selector '\(css)'\(scope)"
                : "'\(css)' is not a valid CSS selector: \(error.message)"
            throw error
        }
        guard let id = value.elementID else { throw WebDriverError("bad response", "no element in \(value)") }
        return Element(id: id, session: session, selector: parent.map { "\($0.selector) \(css)" } ?? css)
    }

    fileprivate static func findAll(
        _ css: String, in session: BrowserSession, from base: String,
        within parent: Element? = nil
    ) async throws -> [Element] {
        let value = try await session.wire.send("POST", base + "/elements", ["using": "css selector", "value": .string(css)])
        let selector = parent.map { "\($0.selector) \(css)" } ?? css
        return (value.arrayValue ?? []).enumerated().compactMap { index, item in
            item.elementID.map { Element(id: $0, session: session, selector: "\(selector)[\(index)]") }
        }
    }
}

/// Puts a suite's tests on a chain's own browser: `.office` for `InOfficeBrowser`, `.second` for
/// `InSecondBrowser`, `.third` for `InThirdBrowser`, `.timing` for `TimingSensitive`
/// (`InBrowser` uses `SharedBrowser.kiosk`, the default).
public struct BrowserChain: SuiteTrait, TestTrait, TestScoping {
    let browser: SharedBrowser

    public init(_ browser: SharedBrowser) { self.browser = browser }

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await SharedBrowser.$current.withValue(browser) { try await function() }
    }
}
