import AsyncHTTPClient
import AuditAPI
import AuditClient
import ConnectedStation
import Foundation
import InventoryCore
import InventoryStore

/// A connected station on its own temporary database, logged in to a test server (or to any
/// server's address): what the connected station's tests and the scan session's share.
public struct TestStation: Sendable {
    public let path: String
    public let database: AppDatabase
    public let audit: ConnectedAuditService
    public let login: StationLogin

    public static let fastPolicy = SyncPolicy(initialDelay: .milliseconds(20), maxDelay: .milliseconds(200), maxAttempts: 12)

    /// Logs in at `server` and talks to `via` (a proxy), or to the server itself.
    /// `autoSync` off: only `syncNow` pushes, so a test knows what each push carries. The
    /// deadline of a call is long (30 s) unless a test is about deadlines: the server runs in the
    /// test process, beside every other test, on two cores.
    public static func make(
        _ server: TestServer, email: String, name: String, via url: String? = nil, timeout: Duration = .seconds(30),
        path: String? = nil, autoSync: Bool = false, policy: SyncPolicy = fastPolicy
    ) async throws -> TestStation {
        try await make(
            server: server.baseURL, email: email, name: name, via: url, timeout: timeout, path: path, autoSync: autoSync, policy: policy)
    }

    /// The same at any server's address (the SPEC-only server of these tests).
    public static func make(
        server: String, email: String, name: String, via url: String? = nil, timeout: Duration = .seconds(30),
        path: String? = nil, autoSync: Bool = false, policy: SyncPolicy = fastPolicy
    ) async throws -> TestStation {
        let path = path ?? TestServer.temporaryPath().replacingOccurrences(of: "server.sqlite", with: "station.sqlite")
        let login: StationLogin
        if let saved = try StationLogin.load(databasePath: path) {
            login = saved
        } else {
            login = try await ConnectedStation.logIn(
                server: server, email: email, password: "secret-pass", deviceName: name,
                apiKey: nil, databasePath: path, http: TestServer.http)
        }
        let database = try AppDatabase(path: path)
        let client = APIClient(baseURL: url ?? login.server, token: login.token, http: TestServer.http, timeout: timeout)
        let audit = try ConnectedAuditService(
            client: client, database: database, actor: Actor(user: login.user.name, station: name),
            policy: policy, autoSync: autoSync)
        return TestStation(path: path, database: database, audit: audit, login: login)
    }

    public func scan(_ identifier: String) async throws -> ScanResult {
        try await audit.record(ScanRequest(identifier: identifier, source: .manual))
    }
}

extension TestServer {
    public func admin(_ email: String) async throws {
        _ = try await parts.users.create(email: email, password: "secret-pass", name: email.components(separatedBy: "@")[0], type: .admin)
    }

    /// Scans stored by the server, and how many distinct scan ids they have: every audit's
    /// trail read through the service, so it works on either back end.
    public func storedScans() async throws -> (rows: Int, distinct: Int) {
        var ids: [String] = []
        var historyPage = 1
        while true {
            let audits = try await parts.audits.history(country: nil, query: ListQuery(page: historyPage, perPage: 100))
            for audit in audits.items {
                var page = 1
                while true {
                    let scans = try await parts.audits.scans(auditID: audit.id, query: ListQuery(page: page, perPage: 100))
                    ids += scans.items.map(\.scanId)
                    if page >= scans.pagination.lastPage { break }
                    page += 1
                }
            }
            if historyPage >= audits.pagination.lastPage { break }
            historyPage += 1
        }
        return (ids.count, Set(ids).count)
    }
}
