import AuditTestSupport
import ConnectedStore
import Foundation
import GRDB
import InventoryCore
import InventoryStore
import Testing
import TestKit
#if canImport(Glibc)
    import Glibc
#endif

/// A connected station whose server is down (connection refused), black-holing (it accepts
/// and never answers) or unreachable (its SYNs are dropped: a loopback listener whose queue
/// is full, `DeadEnd`): `audit scan` still decides every scan from its local
/// copy, prints it, keeps it in the outbox and exits by itself with a one-line notice. The
/// bound on each run (30 s: a debug build's start and exit on two loaded cores take seconds)
/// only catches a hang; the real figures are in Benchmarks/offline.
@Suite(.serialized) struct OfflineConnectedScanTests {
    enum Network: String, CaseIterable {
        case refused, blackHole, unreachable

        /// The server's address on 127.0.0.1, and what closes it.
        func server() async throws -> (String, @Sendable () -> Void) {
            switch self {
            case .refused:
                return (try Loopback.refusedURL(), {})
            case .blackHole:
                let hole = try BlackHole()
                return ("http://127.0.0.1:\(hole.port)", { hole.close() })
            case .unreachable:
                let dead = try DeadEnd()
                try #require(try await dead.swallows(), "the full loopback listener still took a connection")
                return ("http://127.0.0.1:\(dead.port)", { dead.close() })
            }
        }
    }

    @Test(arguments: Network.allCases, [0.0, 1.0])
    func scanningNeverWaitsOnTheNetwork(network: Network, syncBeforeExit: Double) async throws {
        let (server, close) = try await network.server()
        defer { close() }
        let (_, database) = try StationProcess.scratch()
        try await Self.connectedStation(database: database, server: server)
        var arguments = ["--database", database, "audit", "scan", "--json"]
        if syncBeforeExit > 0 { arguments += ["--sync-before-exit", String(syncBeforeExit)] }
        let command = arguments
        let run = try await StationProcess.run(command, input: Data("A1\nSN-A2\nA1\nNOPE\n".utf8), timeout: .seconds(30))
        #expect(!run.hung, "audit scan did not exit by itself within 30 s (\(network))")
        #expect(run.status == 0, "\(run.stderr)")
        let objects = try run.lines.map(jsonObject)
        // NOPE is outside the local copy: pending until the server decides it.
        #expect(objects.map { $0["status"] as? String } == ["found_expected", "found_expected", "already_scanned", "pending"])
        #expect(run.stderr.contains("4 scans wait in this station's outbox"), "\(run.stderr)")
        let queue = try DatabaseQueue(path: database)
        let pending = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox WHERE state = 'pending'") }
        #expect(pending == 4)
    }

    /// With no local copy there is nothing to decide from: the station says so and exits
    /// instead of waiting out the HTTP client's deadline.
    @Test(arguments: Network.allCases)
    func withoutALocalCopyTheStationSaysSoAndExits(network: Network) async throws {
        let (server, close) = try await network.server()
        defer { close() }
        let (_, database) = try StationProcess.scratch()
        try await Self.connectedStation(database: database, server: server, holding: false)
        let run = try await StationProcess.run(["--database", database, "audit", "scan", "--json"], input: Data("A1\n".utf8), timeout: .seconds(30))
        #expect(!run.hung, "audit scan did not exit by itself within 30 s (\(network))")
        #expect(run.status != 0 && run.stdout.isEmpty)
        #expect(run.stderr.contains("holds no copy of a running audit"), "\(run.stderr)")
    }

    /// A station database logged in to `server`, holding a copy of a running SG audit of A1–A3.
    static func connectedStation(database: String, server: String, holding: Bool = true) async throws {
        let login: [String: Any] = [
            "server": server, "token": "1|offline", "device_name": "kiosk-1",
            "user": ["id": 1, "name": "Ann", "email": "ann@example.com", "user_type": "STAFF", "can_edit_assets": false, "countries": []]
        ]
        let data = try JSONSerialization.data(withJSONObject: login)
        let path = database + ".login.json"
        #expect(FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]))
        guard holding else {
            _ = try AppDatabase(path: database)
            return
        }
        let audit = AuditSession(
            id: "audit-1", country: "SG", progress: AuditProgress(totalAssets: 3, scannedCount: 0, unexpectedCount: 0),
            startedAt: Date(), startedBy: "Ann")
        let expected = (1...3).map {
            AuditSnapshot.Expected(
                asset: AssetBrief(
                    id: Int64($0), assetTag: "A\($0)", serialNum: "SN-A\($0)",
                    name: "Laptop \($0)", country: "SG"), firstScan: nil)
        }
        try await StationCopy(database: try AppDatabase(path: database)).store(audit: audit, expected: expected)
    }
}
