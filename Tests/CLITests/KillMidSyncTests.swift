import AuditTestSupport
import Foundation
import GRDB
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A `serve` child process over a database, on a fixed port so it can come back on it.
final class ServeProcess {
    private let process = Process()

    init(database: String, port: Int) throws {
        let log = URL(fileURLWithPath: database + ".serve-\(UUID().uuidString.prefix(6)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.executableURL = StationProcess.executable
        process.arguments = ["--database", database, "serve", "--port", String(port)]
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if (try? String(contentsOf: log, encoding: .utf8))?.contains("Serving the audit API") == true { return }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        kill9()
        throw POSIXError(.ETIMEDOUT)
    }

    func kill9() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

@Suite(.serialized) struct KillMidSyncTests {
    /// Runs `arguments` and kills it with SIGKILL after `delay` seconds if it is still running.
    private static func runKilled(after delay: TimeInterval, _ arguments: [String]) throws {
        try StationProcess.run(arguments) { pid in
            Thread {
                Thread.sleep(forTimeInterval: delay)
                kill(pid, SIGKILL)
            }.start()
        }
    }

    @Test("Killing the station, then the server, mid-sync neither loses nor doubles a scan")
    func killingEitherSideMidSync() async throws {
        // Child processes and their waits, on a thread of their own (see offPool).
        let (rows, distinct, scannedCount, pending, count) = try await offPool { try Self.scenario() }
        #expect(rows == count && distinct == count && scannedCount == count)
        #expect(pending == 0)
    }

    private static func scenario() throws -> (Int, Int, Int, Int, Int) {
        let (folder, serverDB) = try StationProcess.scratch()
        let stationDB = folder.appendingPathComponent("station.sqlite").path
        let count = 1_500
        let created = try StationProcess.run(["--database", serverDB, "users", "create", "--email", "kim@example.com", "--password-stdin",
                                              "--name", "Kim", "--type", "ADMIN"], input: Data("kill-test-pass\n".utf8))
        try check(created.status == 0, "\(created.stderr)")
        let csv = folder.appendingPathComponent("assets.csv")
        try ("asset_tag,name,country\n" + (1...count).map { "K\($0),Laptop,SG" }.joined(separator: "\n") + "\n").write(to: csv, atomically: true, encoding: .utf8)
        try check(try StationProcess.run(["--database", serverDB, "assets", "import", csv.path]).status == 0, "the command failed")

        let port = try BlackHole.closedPort()
        var server = try ServeProcess(database: serverDB, port: port)
        let login = try StationProcess.run(["--database", stationDB, "login", "--server", "http://127.0.0.1:\(port)", "--email", "kim@example.com",
                                            "--password-stdin"], input: Data("kill-test-pass\n".utf8))
        try check(login.status == 0, "\(login.stderr)")
        try check(try StationProcess.run(["--database", stationDB, "audit", "start", "--country", "SG"]).status == 0, "the command failed")
        server.kill9()

        // Offline: every scan is decided locally and waits in the outbox.
        let tags = (1...count).map { "K\($0)" }.joined(separator: "\n") + "\n"
        let scanned = try StationProcess.run(["--database", stationDB, "audit", "scan"], input: Data(tags.utf8))
        try check(scanned.status == 0, "\(scanned.stderr)")

        server = try ServeProcess(database: serverDB, port: port)
        try Self.runKilled(after: 0.15, ["--database", stationDB, "sync"])          // the station dies mid-push
        let pushing = Thread { _ = try? StationProcess.run(["--database", stationDB, "sync"]) }
        pushing.start()
        Thread.sleep(forTimeInterval: 0.15)
        server.kill9()                                                          // the server dies mid-push
        while !pushing.isFinished { Thread.sleep(forTimeInterval: 0.05) }

        server = try ServeProcess(database: serverDB, port: port)
        defer { server.kill9() }
        let last = try StationProcess.run(["--database", stationDB, "sync"])
        try check(last.status == 0, "\(last.stdout)\(last.stderr)")

        let queue = try DatabaseQueue(path: serverDB)
        let (rows, distinct, scannedCount) = try queue.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM scans") ?? -1,
             try Int.fetchOne(db, sql: "SELECT count(DISTINCT scan_id) FROM scans") ?? -1,
             try Int.fetchOne(db, sql: "SELECT scanned_count FROM audits WHERE ended_at IS NULL") ?? -1)
        }
        let station = try DatabaseQueue(path: stationDB)
        let pending = try station.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox WHERE state <> 'synced'") ?? -1 }
        return (rows, distinct, scannedCount, pending, count)
    }

    /// A failed step of the scenario, thrown off the test's thread and reported by the test.
    struct StepFailed: Error, CustomStringConvertible { var description: String }

    private static func check(_ ok: Bool, _ message: @autoclosure () -> String) throws {
        if !ok { throw StepFailed(description: message()) }
    }
}
