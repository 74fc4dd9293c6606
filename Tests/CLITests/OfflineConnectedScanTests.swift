import AuditTestSupport
import ConnectedStore
import Foundation
import GRDB
import InventoryCore
import InventoryStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A connected station whose server is down (connection refused), black-holing (it accepts
/// and never answers) or unreachable: `audit scan` still decides every scan from its local
/// copy, prints it, keeps it in the outbox and exits by itself with a one-line notice. The
/// bound on each run only catches a hang; the real figures are in Benchmarks/offline.
@Suite(.serialized) struct OfflineConnectedScanTests {
    enum Network: String, CaseIterable { case refused, blackHole, unreachable }

    @Test(arguments: Network.allCases, [0.0, 1.0])
    func scanningNeverWaitsOnTheNetwork(network: Network, syncBeforeExit: Double) async throws {
        let hole = try BlackHole()
        defer { hole.close() }
        let server: String
        switch network {
        case .refused: server = "http://127.0.0.1:\(try BlackHole.closedPort())"
        case .blackHole: server = "http://127.0.0.1:\(hole.port)"
        case .unreachable: server = "http://192.0.2.1:8080"   // TEST-NET-1: never routed
        }
        let (_, database) = try StationProcess.scratch()
        try await Self.connectedStation(database: database, server: server)
        var arguments = ["--database", database, "audit", "scan", "--json"]
        if syncBeforeExit > 0 { arguments += ["--sync-before-exit", String(syncBeforeExit)] }
        let command = arguments
        let run = try await offPool { try StationProcess.runWithin(seconds: 10, command, input: Data("A1\nSN-A2\nA1\nNOPE\n".utf8)) }
        #expect(!run.hung, "audit scan did not exit by itself within 10 s (\(network))")
        #expect(run.output.status == 0, "\(run.output.stderr)")
        let objects = try run.output.lines.map(jsonObject)
        // NOPE is outside the local copy: pending until the server decides it.
        #expect(objects.map { $0["status"] as? String } == ["found_expected", "found_expected", "already_scanned", "pending"])
        #expect(run.output.stderr.contains("4 scans wait in this station's outbox"), "\(run.output.stderr)")
        let queue = try DatabaseQueue(path: database)
        let pending = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox WHERE state = 'pending'") }
        #expect(pending == 4)
    }

    /// With no local copy there is nothing to decide from: the station says so and exits
    /// instead of waiting out the HTTP client's deadline.
    @Test(arguments: Network.allCases)
    func withoutALocalCopyTheStationSaysSoAndExits(network: Network) async throws {
        let hole = try BlackHole()
        defer { hole.close() }
        let server = switch network {
        case .refused: "http://127.0.0.1:\(try BlackHole.closedPort())"
        case .blackHole: "http://127.0.0.1:\(hole.port)"
        case .unreachable: "http://192.0.2.1:8080"
        }
        let (_, database) = try StationProcess.scratch()
        try await Self.connectedStation(database: database, server: server, holding: false)
        let run = try await offPool { try StationProcess.runWithin(seconds: 10, ["--database", database, "audit", "scan", "--json"], input: Data("A1\n".utf8)) }
        #expect(!run.hung, "audit scan did not exit by itself within 10 s (\(network))")
        #expect(run.output.status != 0 && run.output.stdout.isEmpty)
        #expect(run.output.stderr.contains("holds no copy of a running audit"), "\(run.output.stderr)")
    }

    /// A station database logged in to `server`, holding a copy of a running SG audit of A1–A3.
    static func connectedStation(database: String, server: String, holding: Bool = true) async throws {
        let login: [String: Any] = [
            "server": server, "token": "1|offline", "device_name": "kiosk-1",
            "user": ["id": 1, "name": "Ann", "email": "ann@example.com", "user_type": "STAFF", "can_edit_assets": false, "countries": []],
        ]
        let data = try JSONSerialization.data(withJSONObject: login)
        let path = database + ".login.json"
        #expect(FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]))
        guard holding else { _ = try AppDatabase(path: database); return }
        let audit = AuditSession(id: "audit-1", country: "SG", progress: AuditProgress(totalAssets: 3, scannedCount: 0, unexpectedCount: 0),
                                 startedAt: Date(), startedBy: "Ann")
        let expected = (1...3).map { AuditSnapshot.Expected(asset: AssetBrief(id: Int64($0), assetTag: "A\($0)", serialNum: "SN-A\($0)",
                                                                               name: "Laptop \($0)", country: "SG"), firstScan: nil) }
        try await StationReplica(database: try AppDatabase(path: database)).store(audit: audit, expected: expected)
    }
}

/// A listening socket on 127.0.0.1 that never accepts: connections complete and requests
/// are taken, but no answer ever comes.
final class BlackHole: @unchecked Sendable {
    let port: Int
    private let fd: Int32

    init() throws {
        (fd, port) = try Self.bound()
        guard listen(fd, 64) == 0 else { Glibc.close(fd); throw POSIXError(.EADDRINUSE) }
    }

    func close() { Glibc.close(fd) }

    /// A port nothing listens on: bound, then closed, so a connection is refused.
    static func closedPort() throws -> Int {
        let (fd, port) = try bound()
        Glibc.close(fd)
        return port
    }

    private static func bound() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { Glibc.close(fd); throw POSIXError(.EADDRINUSE) }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}

extension StationProcess {
    /// Runs to completion like `run`, but kills the process if it has not exited after
    /// `seconds`, and says so: a command that must never hang is caught instead of hanging the tests.
    static func runWithin(seconds: TimeInterval, _ arguments: [String], input: Data) throws -> (output: Output, hung: Bool) {
        let hung = Locked(false)
        let started = Locked<pid_t>(0)
        let watchdog = Thread {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline { Thread.sleep(forTimeInterval: 0.05); if Thread.current.isCancelled { return } }
            let pid = started.get()
            if pid > 0 && kill(pid, 0) == 0 { hung.set(true); kill(pid, SIGKILL) }
        }
        let output = try run(arguments, input: input) { pid in started.set(pid); watchdog.start() }
        watchdog.cancel()
        return (output, hung.get())
    }
}
