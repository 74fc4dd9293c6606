import AuditServer
import AuditTestSupport
import Foundation
import InventoryCore
@testable import PostgresStore
import Testing

/// What only the PostgreSQL back end has: several pools (as several server processes have) on
/// one database, a database that goes away under a running server, migrations that two
/// servers run at once, and connection failures said in one line.
@Suite("The server on PostgreSQL")
struct PostgresBackendTests {
    /// Two pools on one new database, opened (and migrating) at once as two server processes
    /// would; they run for the span of `body`.
    static func withTwoServers<T>(_ body: (ServerBackend, ServerBackend, PostgresURL) async throws -> T) async throws -> T {
        let url = try await PostgresCluster.shared().newDatabase()
        async let openFirst = PostgresDatabase.open(url, maxConnections: 16)
        async let openSecond = PostgresDatabase.open(url, maxConnections: 16)
        let (first, second) = try await (openFirst, openSecond)
        return try await first.whileRunning {
            try await second.whileRunning { try await body(.postgres(first), .postgres(second), url) }
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
                            answers.append(
                                try await backend.audits.record(
                                    ScanRequest(
                                        identifier: identifier, auditId: audit.id,
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

    @Test(
        "A decision whose entry another scan changed before the write is undone whole and made again",
        arguments: ["A-1", "NOPE-1"])
    func aStaleDecisionIsMadeAgain(identifier: String) async throws {
        let url = try await PostgresCluster.shared().newDatabase()
        let database = try await PostgresDatabase.open(url, maxConnections: 4)
        try await database.whileRunning {
            let service = PostgresAuditService(database: database)
            _ = try await PostgresAssetService(database: database).create(AssetInput(assetTag: "A-1", name: "Laptop", country: "SG"))
            let audit = try await service.start(country: "SG", by: Actor(user: "alice", station: "k1"))
            let late = try PreparedScan(
                ScanRequest(identifier: identifier, auditId: audit.id, scanId: "late", deviceName: "k2", user: "bob"),
                defaultStation: "server")
            // The late scan decides first, on facts where nothing of the identifier is scanned yet …
            let decision = try await database.read { c in
                let facts = try #require(
                    try await PrefetchedLookup.fetch(
                        c, auditID: audit.id, identifier: identifier, scanID: "late",
                        caseSensitive: true))
                return try AuditRules.decide(identifier, country: "SG", lookup: facts.lookup)
            }
            #expect(decision.firstScan == nil)
            // … then another scan of the same identifier commits …
            let first = try await service.record(
                ScanRequest(
                    identifier: identifier, auditId: audit.id, scanId: "first", deviceName: "k1",
                    user: "alice"))
            #expect(first.firstScan == nil)
            // … and the late write, on the old decision, is refused whole.
            let refusal = try await database.read { c -> String? in
                do {
                    _ = try await ScanWrite.run(c, late, decision, message: "stale", auditID: audit.id, late: false)
                    return nil
                } catch {
                    return ScanWrite.isStale(error) ? "stale" : "\(error)"
                }
            }
            #expect(refusal == "stale")
            #expect(try await service.scans(auditID: audit.id, query: ListQuery(page: 1, perPage: 10)).pagination.total == 1)
            #expect(try await service.audit(id: audit.id).progress.scannedCount == (identifier == "A-1" ? 1 : 0))
            #expect(try await service.audit(id: audit.id).progress.unexpectedCount == (identifier == "A-1" ? 0 : 1))
            // Recorded the normal way, the late scan is decided on the new facts: a repeat of the first.
            let again = try await service.record(
                ScanRequest(
                    identifier: identifier, auditId: audit.id, scanId: "late", deviceName: "k2",
                    user: "bob"))
            #expect(again.status == (identifier == "A-1" ? .alreadyScanned : .unknown))
            #expect(again.firstScan?.station == "k1")
            #expect(try await service.audit(id: audit.id).progress == first.progress)
        }
    }

    @Test("An id with a NUL character, which PostgreSQL cannot store, is the request's error, not the server's")
    func nulInAnIdIsInvalidInput() async throws {
        let url = try await PostgresCluster.shared().newDatabase()
        let database = try await PostgresDatabase.open(url, maxConnections: 2)
        try await database.whileRunning {
            let service = PostgresAuditService(database: database)
            for call in [{ _ = try await service.audit(id: "a\u{0}b") }, { _ = try await service.country(ofAudit: "a\u{0}b") }] {
                do {
                    try await call()
                    Issue.record("an id with NUL was accepted")
                } catch let error as InventoryError {
                    guard case .invalid = error else {
                        Issue.record("not an input error: \(error)")
                        continue
                    }
                }
            }
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
        try await database.whileRunning {
            try await TestServer.with(parts: parts, settings: settings) { server in
                let up = try await server.call("GET", "/health")
                #expect(up.status == 200 && up.data?["database"] as? String == "reachable", "\(up.text)")
                try await cluster.psql("DROP DATABASE \(url.database) WITH (FORCE)")
                let down = try await server.call("GET", "/health")
                #expect(down.status == 503 && down.error == "UNAVAILABLE", "\(down.text)")
            }
        }
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
        // libpq's connect_timeout, in seconds: 10 when absent; a bound is always kept.
        #expect(try PostgresURL("postgres://u@db.example/audits").connectTimeout == 10)
        #expect(try PostgresURL("postgres://u@db.example/audits?sslmode=require&connect_timeout=45").connectTimeout == 45)
        for bad in ["0", "-3", "ten", "3601", ""] {
            #expect(throws: InventoryError.self, "connect_timeout=\(bad)") {
                try PostgresURL("postgres://u@db.example/audits?connect_timeout=\(bad)")
            }
        }
        #expect(
            try PostgresDatabase.connectionConfiguration(PostgresURL("postgres://u@h/d?connect_timeout=45")).options.connectTimeout == .seconds(45))
        #expect(try PostgresDatabase.clientConfiguration(PostgresURL("postgres://u@h/d?connect_timeout=45")).options.connectTimeout == .seconds(45))
    }
}

/// The PostgreSQL import: chunks copied into one transaction, every bad row named by its line.
@Suite("Importing assets into PostgreSQL")
struct PostgresImportTests {
    static func chunks(_ rows: [ImportRow], size: Int) -> AsyncThrowingStream<[ImportRow], any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [ImportRow].self)
        for start in stride(from: 0, to: rows.count, by: size) { continuation.yield(Array(rows[start..<min(start + size, rows.count)])) }
        continuation.finish()
        return stream
    }

    static func row(_ line: Int, tag: String, serial: String? = nil, customer: Int64? = nil) -> ImportRow {
        ImportRow(line: line, input: AssetInput(assetTag: tag, serialNum: serial, name: "Laptop", country: "SG", customerId: customer))
    }

    @Test("Bad rows in any chunk are each reported by line and nothing is stored; a clean file is stored whole", arguments: [true, false])
    func everyBadRowIsNamed(caseSensitive: Bool) async throws {
        try await PostgresCluster.withNewDatabase { database in
            let assets = ServerBackend.postgres(database, caseSensitive: caseSensitive).assets
            _ = try await assets.create(AssetInput(assetTag: "OLD-1", serialNum: "OLD-SN", name: "Laptop", country: "SG"))
            var rows = (2..<1_202).map { Self.row($0, tag: "N-\($0)", serial: "S-\($0)") }
            rows.append(Self.row(1_202, tag: "N-10")) // repeats line 10, two chunks later
            rows.append(Self.row(1_203, tag: "OLD-1")) // already in the inventory
            rows.append(Self.row(1_204, tag: "N-X", serial: "S-20")) // serial repeats line 20
            rows.append(Self.row(1_205, tag: "N-Y", customer: 99)) // no such customer
            rows.append(ImportRow(line: 1_206, input: AssetInput(assetTag: "N-Z", name: "", country: "SG")))
            if !caseSensitive { rows.append(Self.row(1_207, tag: "n-11")) } // repeats line 11 but for case
            await #expect {
                try await assets.importAssets(streaming: Self.chunks(rows, size: 500)) { _ in }
            } throws: { error in
                guard case .invalid(let problems) = error as? InventoryError else { return false }
                let expected = [
                    "line 1202": "repeats line 10", "line 1203": "already in the inventory", "line 1204": "repeats line 20",
                    "line 1205": "not a customer", "line 1206": "name"
                ]
                .merging(caseSensitive ? [:] : ["line 1207": "repeats line 11"]) { $1 }
                return Set(problems.fields.keys) == Set(expected.keys)
                    && expected.allSatisfy { key, words in problems.fields[key]?.contains { $0.contains(words) } == true }
            }
            #expect(try await assets.list(AssetFilter(), query: ListQuery()).pagination.total == 1, "nothing was stored")
            let clean = (2..<1_202).map { Self.row($0, tag: "N-\($0)", serial: "S-\($0)") }
            #expect(try await assets.importAssets(streaming: Self.chunks(clean, size: 500)) { _ in } == 1_200)
            #expect(try await assets.find(identifier: "S-1201")?.assetTag == "N-1201")
        }
    }
}
