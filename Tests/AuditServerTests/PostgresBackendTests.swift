import AuditServer
import AuditTestSupport
import Foundation
import InventoryCore
import PostgresStore
import Testing

/// What only the PostgreSQL back end has: several pools (as several server processes have) on
/// one database, a database that goes away under a running server, migrations that two
/// servers run at once, and connection failures said in one line.
@Suite("The server on PostgreSQL")
struct PostgresBackendTests {
    /// Two pools on one new database, as two server processes would have; closed after `body`.
    static func withTwoServers<T>(_ body: (ServerBackend, ServerBackend, PostgresURL) async throws -> T) async throws -> T {
        let url = try await PostgresCluster.shared().newDatabase()
        async let openFirst = PostgresDatabase.open(url, maxConnections: 16)
        async let openSecond = PostgresDatabase.open(url, maxConnections: 16)
        let (first, second) = try await (openFirst, openSecond)
        do {
            let result = try await body(.postgres(first), .postgres(second), url)
            await first.close(); await second.close()
            return result
        } catch {
            await first.close(); await second.close()
            throw error
        }
    }

    @Test("Two servers migrating one new database at once both start, and the schema is made once")
    func concurrentMigrations() async throws {
        try await Self.withTwoServers { first, second, _ in
            _ = try await first.assets.create(AssetInput(assetTag: "A-1", name: "Laptop", country: "SG"))
            #expect(try await second.assets.find(identifier: "A-1")?.assetTag == "A-1")
        }
    }

    @Test("Scans of one audit from 32 tasks over two pools: every number is exact")
    func concurrentScansCountExactly() async throws {
        try await Self.withTwoServers { first, second, _ in
            for index in 0..<60 {
                _ = try await first.assets.create(AssetInput(assetTag: "T-\(index)", serialNum: "S-\(index)", name: "Laptop", country: "SG"))
            }
            _ = try await first.assets.create(AssetInput(assetTag: "MY-1", name: "Elsewhere", country: "MY"))
            let audit = try await first.audits.start(country: "SG", by: Actor(user: "alice", station: "k1"))
            // Each expected asset by tag and by serial, twice; an asset of another country; unknowns.
            var identifiers = (0..<60).flatMap { ["T-\($0)", "S-\($0)", "T-\($0)"] } + Array(repeating: "MY-1", count: 10)
            identifiers += (0..<20).map { "NOPE-\($0 % 7)" }
            let work = identifiers.shuffled()
            let results = try await withThrowingTaskGroup(of: [ScanResult].self) { group in
                for worker in 0..<32 {
                    let backend = worker % 2 == 0 ? first : second
                    group.addTask {
                        var answers: [ScanResult] = []
                        for identifier in stride(from: worker, to: work.count, by: 32).map({ work[$0] }) {
                            answers.append(try await backend.audits.record(ScanRequest(identifier: identifier, auditId: audit.id,
                                                                                        deviceName: "k\(worker)", user: "u")))
                        }
                        return answers
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let progress = try await second.audits.audit(id: audit.id).progress
            #expect(progress == AuditProgress(totalAssets: 60, scannedCount: 60, unexpectedCount: 8))
            #expect(results.filter { $0.status == .foundExpected }.count == 60, "one first find per asset")
            #expect(results.filter { $0.status == .unexpected && $0.firstScan == nil }.count == 1)
            #expect(results.filter { $0.status == .unknown && $0.firstScan == nil }.count == 7)
            let trail = try await first.audits.scans(auditID: audit.id, query: ListQuery(page: 1, perPage: 1))
            #expect(trail.pagination.total == identifiers.count)
        }
    }

    @Test("The same scan_id sent to two servers at once is stored once, and both get its outcome")
    func concurrentReplaysAreOneScan() async throws {
        try await Self.withTwoServers { first, second, _ in
            _ = try await first.assets.create(AssetInput(assetTag: "R-1", name: "Laptop", country: "SG"))
            let audit = try await first.audits.start(country: "SG", by: Actor(user: "alice", station: "k1"))
            for round in 0..<20 {
                let request = ScanRequest(identifier: round == 0 ? "R-1" : "X-\(round)", auditId: audit.id, scanId: "scan-\(round)")
                async let a = first.audits.record(request)
                async let b = second.audits.record(request)
                let (one, two) = try await (a, b)
                #expect(one.status == two.status && one.scanId == two.scanId)
            }
            let progress = try await first.audits.audit(id: audit.id).progress
            #expect(progress == AuditProgress(totalAssets: 1, scannedCount: 1, unexpectedCount: 19))
            #expect(try await first.audits.scans(auditID: audit.id, query: ListQuery()).pagination.total == 20)
        }
    }

    @Test("/health answers 200 while the database is there and 503 once it is gone")
    func healthFollowsTheDatabase() async throws {
        let cluster = try await PostgresCluster.shared()
        let url = try await cluster.newDatabase()
        let database = try await PostgresDatabase.open(url)
        let settings = ServerSettings(host: "127.0.0.1", port: 0, signingKey: .secret(Data(repeating: 7, count: 48)))
        let parts = try await ServerParts(backend: .postgres(database), settings: settings, bcryptCost: 4)
        try await TestServer.with(parts: parts, settings: settings) { server in
            let up = try await server.call("GET", "/health")
            #expect(up.status == 200 && up.data?["database"] as? String == "reachable", "\(up.text)")
            try await cluster.psql("DROP DATABASE \(url.database) WITH (FORCE)")
            let down = try await server.call("GET", "/health")
            #expect(down.status == 503 && down.error == "UNAVAILABLE", "\(down.text)")
        }
        await database.close()
    }

    @Test("A refused connection, a missing database and a bad URL are one clear line, without the password")
    func connectionFailuresAreOneLine() async throws {
        let cluster = try await PostgresCluster.shared()
        let refused = try PostgresURL("postgres://someone:hunter22@127.0.0.1:1/db?sslmode=disable")
        let missing = try PostgresURL("postgres://postgres:hunter22@127.0.0.1:\(cluster.port)/no_such_db?sslmode=disable")
        for (url, words) in [(refused, "connection refused"), (missing, "does not exist")] {
            do {
                _ = try await PostgresDatabase.open(url)
                Issue.record("opening \(url) succeeded")
            } catch let error as InventoryError {
                let text = error.localizedDescription
                #expect(text.contains(words) && !text.contains("hunter22") && !text.contains("\n"), "\(text)")
            }
        }
        #expect(throws: InventoryError.self) { try PostgresURL("mysql://x@y/z") }
        #expect(try PostgresURL("postgres://u:secret@db.example:6432/audits").description == "postgres://u@db.example:6432/audits")
    }
}
