import AsyncHTTPClient
import AuditTestSupport
import Foundation
import InventoryCore
import NIOCore
import PostgresStore
import Testing
import TestKit
#if canImport(Glibc)
    import Glibc
#endif

/// A `serve --postgres` child process on any free port, with the signing key every server of
/// the database shares.
struct PostgresServeProcess {
    let child: RunningChild
    let port: Int

    static func start(url: PostgresURL, key: String, log: URL) async throws -> PostgresServeProcess {
        let child = try await Child.start(
            StationProcess.executable.path,
            ["serve", "--postgres", text(url), "--port", "0", "--pool-size", "16"],
            environment: ["AUDIT_STATION_JWT_SECRET": key], log: log)
        do {
            let port = try await child.waitForLog("serve --postgres") { text in
                text.split(separator: "\n").first(where: { $0.contains("Serving the audit API") })
                    .flatMap { $0.split(separator: ":").last.flatMap { Int($0.prefix(while: \.isNumber)) } }
            }
            return PostgresServeProcess(child: child, port: port)
        } catch {
            await child.kill9()
            throw error
        }
    }

    /// The URL as the command line takes it (the test cluster has no password).
    static func text(_ url: PostgresURL) -> String { "postgres://\(url.user)@\(url.host):\(url.port)/\(url.database)?sslmode=disable" }

    func kill9() async { await child.kill9() }
}

/// Two servers over one database, stopped when `body` is done, whether it returns or throws.
func withTwoServers<T>(
    _ url: PostgresURL, key: String, folder: URL,
    _ body: ([PostgresServeProcess]) async throws -> T
) async throws -> T {
    let first = try await PostgresServeProcess.start(url: url, key: key, log: folder.appendingPathComponent("a.log"))
    let second: PostgresServeProcess
    do {
        second = try await PostgresServeProcess.start(url: url, key: key, log: folder.appendingPathComponent("b.log"))
    } catch {
        await first.kill9()
        throw error
    }
    let servers = [first, second]
    return try await withCleanup({ try await body(servers) }, cleanup: { for server in servers { await server.kill9() } })
}

extension TimingSensitive {
    /// Several `serve` processes on one PostgreSQL database: exact counts under load from both, and
    /// a server killed with SIGKILL mid-load losing and doubling nothing while the other serves on.
    @Suite struct PostgresServeTests {
        static let key = "shared-signing-key-for-the-two-servers-0123456789"
        static let client = TestServer.http

        /// A database with an admin (made by `users create --postgres`) and `assets` SG assets.
        static func prepare(assets: Int) async throws -> (url: PostgresURL, folder: URL) {
            let url = try await PostgresCluster.shared().newDatabase()
            let (folder, _) = try StationProcess.scratch()
            let created = try await StationProcess.run(
                [
                    "users", "create", "--postgres", PostgresServeProcess.text(url), "--email", "kim@example.com",
                    "--password-stdin", "--name", "Kim", "--type", "ADMIN"
                ], input: Data("two-server-pass\n".utf8))
            try #require(created.status == 0, "\(created.stderr)")
            let database = try await PostgresDatabase.open(url, maxConnections: 4)
            try await database.whileRunning {
                let backend = ServerBackend.postgres(database)
                for index in 0..<assets {
                    _ = try await backend.assets.create(AssetInput(assetTag: "PG-\(index)", serialNum: "SN-\(index)", name: "Laptop", country: "SG"))
                }
            }
            return (url, folder)
        }

        static func call(
            _ port: Int, _ method: String, _ path: String, json: String? = nil, token: String? = nil,
            timeout: Int64 = 20
        ) async throws -> (Int, [String: Any]) {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
            request.method = .init(rawValue: method)
            if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
            if let json {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: json))
            }
            let response = try await client.execute(request, timeout: .seconds(timeout))
            let body = try await response.body.collect(upTo: 1 << 20)
            let object = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
            return (Int(response.status.code), object)
        }

        static func login(_ port: Int) async throws -> String {
            let (_, body) = try await call(
                port, "POST", "/api/v1/auth/login",
                json: #"{"email":"kim@example.com","password":"two-server-pass","device_name":"load"}"#)
            return try #require((body["data"] as? [String: Any])?["token"] as? String)
        }

        @Test("Two serve processes on one database, 32 connections scanning one audit: every number is exact")
        func twoServersCountExactly() async throws {
            let (url, folder) = try await Self.prepare(assets: 300)
            try await withTwoServers(url, key: Self.key, folder: folder) { servers in
                let ports = servers.map(\.port)
                let token = try await Self.login(ports[0])
                let (_, started) = try await Self.call(ports[1], "POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
                let auditID = try #require(((started["data"] as? [String: Any])?["audit"] as? [String: Any])?["id"] as? String)
                // Every asset by tag, by serial and by tag again; 40 scans of 10 unknown identifiers.
                let identifiers = ((0..<300).flatMap { ["PG-\($0)", "SN-\($0)", "PG-\($0)"] } + (0..<40).map { "GONE-\($0 % 10)" }).shuffled()
                let found = try await withThrowingTaskGroup(of: Int.self) { group in
                    for connection in 0..<32 {
                        group.addTask {
                            var firsts = 0
                            for index in stride(from: connection, to: identifiers.count, by: 32) {
                                let body = #"{"identifier":"\#(identifiers[index])","audit_id":"\#(auditID)","scan_id":"load-\#(index)"}"#
                                let (status, answer) = try await Self.call(
                                    ports[connection % 2], "POST", "/api/v1/audit/scan", json: body, token: token)
                                try #require(status == 200, "\(answer)")
                                if (answer["data"] as? [String: Any])?["status"] as? String == "found_expected" { firsts += 1 }
                            }
                            return firsts
                        }
                    }
                    return try await group.reduce(0, +)
                }
                #expect(found == 300, "each asset is found first exactly once")
                let (_, status) = try await Self.call(ports[0], "GET", "/api/v1/audit/status?country=SG", token: token)
                let audit = try #require((status["data"] as? [String: Any])?["audit"] as? [String: Any])
                #expect(audit["scanned_count"] as? Int == 300)
                #expect(audit["missing_count"] as? Int == 0)
                #expect(audit["unexpected_count"] as? Int == 10)
                let stored = try await PostgresCluster.shared().psql("SELECT count(*), count(DISTINCT scan_id) FROM scans", database: url.database)
                #expect(stored == ["\(identifiers.count)|\(identifiers.count)"])
            }
        }

        @Test("Killing one of two servers with SIGKILL mid-load: every acknowledged scan is stored once, and the other serves on")
        func killingOneServerLosesNothing() async throws {
            let (url, folder) = try await Self.prepare(assets: 200)
            try await withTwoServers(url, key: Self.key, folder: folder) { servers in
                let ports = servers.map(\.port)
                let token = try await Self.login(ports[1])
                let (_, started) = try await Self.call(ports[1], "POST", "/api/v1/audit/start", json: #"{"country":"SG"}"#, token: token)
                let auditID = try #require(((started["data"] as? [String: Any])?["audit"] as? [String: Any])?["id"] as? String)
                let identifiers = (0..<200).flatMap { ["PG-\($0)", "SN-\($0)"] }.shuffled()
                let killer = Task {
                    try await Task.sleep(for: .milliseconds(400))
                    await servers[0].kill9()
                }
                // Each connection sends its scans to server A while it answers, and to B after, as a
                // load balancer would once A stops answering; a scan whose call failed is sent again,
                // with the same scan_id, to B.
                let aIsDown = Locked(false)
                let acknowledged = try await withThrowingTaskGroup(of: [String].self) { group in
                    for connection in 0..<16 {
                        group.addTask {
                            var acked: [String] = []
                            for index in stride(from: connection, to: identifiers.count, by: 16) {
                                let body = #"{"identifier":"\#(identifiers[index])","audit_id":"\#(auditID)","scan_id":"kill-\#(index)"}"#
                                var answered = false
                                if connection % 2 == 0, !aIsDown.get() {
                                    if let (status, _) = try? await Self.call(
                                        ports[0], "POST", "/api/v1/audit/scan", json: body, token: token, timeout: 3)
                                    {
                                        answered = status == 200
                                    } else {
                                        aIsDown.set(true)
                                    }
                                }
                                if !answered {
                                    let (status, answer) = try await Self.call(ports[1], "POST", "/api/v1/audit/scan", json: body, token: token)
                                    try #require(status == 200, "\(answer)")
                                }
                                acked.append("kill-\(index)")
                            }
                            return acked
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                try await killer.value
                #expect(aIsDown.get(), "server A was killed while scans were still being sent")
                #expect(acknowledged.count == identifiers.count)
                let rows = try await PostgresCluster.shared().psql("SELECT scan_id FROM scans", database: url.database)
                #expect(rows.count == Set(rows).count, "no scan is stored twice")
                #expect(Set(rows) == Set(acknowledged), "every acknowledged scan is stored")
                let (health, _) = try await Self.call(ports[1], "GET", "/health")
                #expect(health == 200)
                let (_, status) = try await Self.call(ports[1], "GET", "/api/v1/audit/status?country=SG", token: token)
                let audit = try #require((status["data"] as? [String: Any])?["audit"] as? [String: Any])
                #expect(audit["scanned_count"] as? Int == 200 && audit["unexpected_count"] as? Int == 0)
            }
        }

        @Test("serve --postgres without a signing key, and a server that refuses, are each one line naming what to do, never the password")
        func setupMistakesAreOneLine() async throws {
            let (folder, _) = try StationProcess.scratch()
            let config = folder.appendingPathComponent("station.json")
            try Data(#"{"postgres": {"url": "postgres://kim:hunter22@127.0.0.1:1/audits"}}"#.utf8).write(to: config)
            let noKey = try await StationProcess.run(
                ["serve", "--postgres", "postgres://kim:hunter22@127.0.0.1:1/audits"],
                environment: ["AUDIT_STATION_JWT_SECRET": ""])
            let refused = try await StationProcess.run(["--config", config.path, "users", "list"])
            let flagWins = try await StationProcess.run([
                "--config", config.path, "users", "list", "--postgres", "postgres://kim:hunter22@127.0.0.1:2/other"
            ])
            #expect(
                noKey.status != 0 && noKey.stderr.contains("--jwt-key-file") && noKey.stderr.contains("AUDIT_STATION_JWT_SECRET"), "\(noKey.stderr)")
            #expect(
                refused.status != 0 && refused.stderr.contains("127.0.0.1:1/audits") && refused.stderr.contains("connection refused"),
                "\(refused.stderr)")
            #expect(flagWins.stderr.contains("127.0.0.1:2/other"), "the option wins over the config: \(flagWins.stderr)")
            for output in [noKey, refused, flagWins] {
                #expect(!output.stderr.contains("hunter22") && output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
            }
        }
    }
}
