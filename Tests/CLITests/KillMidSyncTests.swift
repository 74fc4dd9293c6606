import AuditTestSupport
import Foundation
import GRDB
import Testing
import TestKit
#if canImport(Glibc)
    import Glibc
#endif

/// A `serve` child process over a database, on a fixed port so it can come back on it.
struct ServeProcess {
    let child: RunningChild

    static func start(database: String, port: Int) async throws -> ServeProcess {
        let log = URL(fileURLWithPath: database + ".serve-\(UUID().uuidString.prefix(6)).log")
        let child = try await Child.start(StationProcess.executable.path, ["--database", database, "serve", "--port", String(port)], log: log)
        do {
            _ = try await child.waitForLog("serve") { $0.contains("Serving the audit API") ? true : nil }
        } catch {
            await child.kill9()
            throw error
        }
        return ServeProcess(child: child)
    }

    func kill9() async { await child.kill9() }
}

extension TimingSensitive {
    @Suite struct KillMidSyncTests {
        /// Runs `arguments` and kills it with SIGKILL after `delay` if it is still running.
        private static func runKilled(after delay: Duration, _ arguments: [String]) async throws {
            _ = try await StationProcess.run(arguments, timeout: delay)
        }

        @Test("Killing the station, then the server, mid-sync neither loses nor doubles a scan")
        func killingEitherSideMidSync() async throws {
            let (rows, distinct, scannedCount, pending, count) = try await Self.scenario()
            #expect(rows == count && distinct == count && scannedCount == count)
            #expect(pending == 0)
        }

        private static func scenario() async throws -> (Int, Int, Int, Int, Int) {
            let (folder, serverDB) = try StationProcess.scratch()
            let stationDB = folder.appendingPathComponent("station.sqlite").path
            let count = 1_500
            let created = try await StationProcess.run(
                [
                    "--database", serverDB, "users", "create", "--email", "kim@example.com", "--password-stdin",
                    "--name", "Kim", "--type", "ADMIN"
                ], input: Data("kill-test-pass\n".utf8))
            try check(created.status == 0, "\(created.stderr)")
            let csv = folder.appendingPathComponent("assets.csv")
            try CSVFixture("asset_tag", "name", "country").assets(1...count, tag: "K", name: { _ in "Laptop" }).write(to: csv)
            try check(try await StationProcess.run(["--database", serverDB, "assets", "import", csv.path]).status == 0, "the command failed")

            let port = try Loopback.longLivedPort() // started again on it
            var server = try await ServeProcess.start(database: serverDB, port: port)
            let login = try await StationProcess.run(
                [
                    "--database", stationDB, "login", "--server", "http://127.0.0.1:\(port)", "--email", "kim@example.com",
                    "--password-stdin"
                ], input: Data("kill-test-pass\n".utf8))
            try check(login.status == 0, "\(login.stderr)")
            try check(try await StationProcess.run(["--database", stationDB, "audit", "start", "--country", "SG"]).status == 0, "the command failed")
            await server.kill9()

            // Offline: every scan is decided locally and waits in the outbox.
            let tags = (1...count).map { "K\($0)" }.joined(separator: "\n") + "\n"
            let scanned = try await StationProcess.run(["--database", stationDB, "audit", "scan"], input: Data(tags.utf8))
            try check(scanned.status == 0, "\(scanned.stderr)")

            server = try await ServeProcess.start(database: serverDB, port: port)
            try await Self.runKilled(after: .milliseconds(150), ["--database", stationDB, "sync"]) // the station dies mid-push
            let pushing = Task { _ = try? await StationProcess.run(["--database", stationDB, "sync"]) }
            try await Task.sleep(for: .milliseconds(150))
            await server.kill9() // the server dies mid-push
            await pushing.value

            server = try await ServeProcess.start(database: serverDB, port: port)
            let last = try await StationProcess.run(["--database", stationDB, "sync"])
            await server.kill9()
            try check(last.status == 0, "\(last.stdout)\(last.stderr)")

            let queue = try DatabaseQueue(path: serverDB)
            let (rows, distinct, scannedCount) = try await queue.read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM scans") ?? -1,
                    try Int.fetchOne(db, sql: "SELECT count(DISTINCT scan_id) FROM scans") ?? -1,
                    try Int.fetchOne(db, sql: "SELECT scanned_count FROM audits WHERE ended_at IS NULL") ?? -1
                )
            }
            let station = try DatabaseQueue(path: stationDB)
            let pending = try await station.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox WHERE state <> 'synced'") ?? -1 }
            return (rows, distinct, scannedCount, pending, count)
        }

        /// A failed step of the scenario, reported by the test.
        struct StepFailed: Error, CustomStringConvertible { var description: String }

        private static func check(_ ok: Bool, _ message: @autoclosure () -> String) throws {
            if !ok { throw StepFailed(description: message()) }
        }
    }
}
