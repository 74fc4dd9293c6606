import AsyncHTTPClient
import AuditAPI
import AuditClient
import AuditTestSupport
import Foundation
import InventoryCore
import InventoryStore

/// A connected station on its own temporary database, logged in to a test server.
struct Station {
    let path: String
    let database: AppDatabase
    let audit: ConnectedAuditService
    let login: StationLogin

    static let fastPolicy = SyncPolicy(initialDelay: .milliseconds(20), maxDelay: .milliseconds(200), maxAttempts: 12)

    /// Logs in at `server` and talks to `via` (a proxy), or to the server itself.
    /// `autoSync` off: only `syncNow` pushes, so a test knows what each push carries.
    static func make(_ server: TestServer, email: String, name: String, via url: String? = nil, timeout: Duration = .seconds(5),
                     path: String? = nil, autoSync: Bool = false) async throws -> Station {
        try await make(server: server.baseURL, email: email, name: name, via: url, timeout: timeout, path: path, autoSync: autoSync)
    }

    /// The same at any server's address (the SPEC-only server of these tests).
    static func make(server: String, email: String, name: String, via url: String? = nil, timeout: Duration = .seconds(5),
                     path: String? = nil, autoSync: Bool = false) async throws -> Station {
        let path = path ?? TestServer.temporaryPath().replacingOccurrences(of: "server.sqlite", with: "station.sqlite")
        let login: StationLogin
        if let saved = try StationLogin.load(databasePath: path) { login = saved } else {
            login = try await ConnectedStation.logIn(server: server, email: email, password: "secret-pass", deviceName: name,
                                                     apiKey: nil, databasePath: path, http: TestServer.http)
        }
        let database = try AppDatabase(path: path)
        let client = APIClient(baseURL: url ?? login.server, token: login.token, http: TestServer.http, timeout: timeout)
        let audit = ConnectedAuditService(client: client, database: database, actor: Actor(user: login.user.name, station: name),
                                          policy: fastPolicy, autoSync: autoSync)
        return Station(path: path, database: database, audit: audit, login: login)
    }

    func scan(_ identifier: String) async throws -> ScanResult {
        try await audit.record(ScanRequest(identifier: identifier, source: .manual))
    }
}

extension TestServer {
    func admin(_ email: String) async throws {
        _ = try await parts.users.create(email: email, password: "secret-pass", name: email.components(separatedBy: "@")[0], type: .admin)
    }

    /// Scans stored by the server, and how many distinct scan ids they have.
    func storedScans() async throws -> (rows: Int, distinct: Int) {
        try await parts.database.writer.read { db in
            let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM scans") ?? -1
            let distinct = try Int.fetchOne(db, sql: "SELECT count(DISTINCT scan_id) FROM scans") ?? -1
            return (rows, distinct)
        }
    }
}
