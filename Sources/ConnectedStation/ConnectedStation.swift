import AuditClient
import AsyncHTTPClient
import AuditAPI
import Foundation
import InventoryCore
import InventoryStore

/// A station logged in to a server: the four services over the API, the audit one with its
/// copy, outbox and SyncEngine.
public struct ConnectedStation: Sendable {
    public let login: StationLogin
    public let client: APIClient
    public let audit: ConnectedAuditService
    public let assets: RemoteAssetService
    public let accessories: RemoteAccessoryService
    public let customers: RemoteCustomerService

    public init(
        login: StationLogin, database: AppDatabase, station: String, caseSensitive: Bool = true,
        policy: SyncPolicy = SyncPolicy()
    ) throws {
        self.login = login
        client = APIClient(
            baseURL: login.server, token: login.token, apiKey: login.apiKey,
            loginHint: "log in again with `audit-station login --server \(login.server) --email \(login.user.email)`")
        audit = try ConnectedAuditService(
            client: client, database: database, actor: Actor(user: login.user.name, station: station),
            caseSensitive: caseSensitive, policy: policy)
        assets = RemoteAssetService(client: client)
        accessories = RemoteAccessoryService(client: client)
        customers = RemoteCustomerService(client: client)
    }

    /// The connected station of this database, or nil when it has not logged in (standalone).
    /// Its scans carry the name it logged in with (`--device-name`, else the `station` name of
    /// then), so the server's by-station tables and its list of stations name each station as
    /// it logged in: two kiosks on hosts of the same name are two rows.
    public static func open(databasePath: String, database: AppDatabase, station: String, caseSensitive: Bool = true) throws -> ConnectedStation? {
        guard let login = try StationLogin.load(databasePath: databasePath) else { return nil }
        let name = login.deviceName.isEmpty ? station : login.deviceName
        return try ConnectedStation(login: login, database: database, station: name, caseSensitive: caseSensitive)
    }

    /// Logs in and saves the token next to the database (mode 0600).
    public static func logIn(
        server: String, email: String, password: String, deviceName: String, apiKey: String?,
        databasePath: String, http: HTTPClient = .station
    ) async throws -> StationLogin {
        guard let url = URL(string: server), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw InventoryError.invalid(ValidationError(field: "server", message: "'\(server)' is not an http:// or https:// address"))
        }
        let client = APIClient(baseURL: server, apiKey: apiKey, http: http)
        let (status, data) = try await client.raw(.POST, Routes.login, body: LoginRequest(email: email, password: password, deviceName: deviceName))
        let answer = try LoginAnswer.read(data, server: client.baseURL, status: status)
        var user = answer.user
        if user.email.isEmpty { user.email = email }
        if user.name.isEmpty { user.name = user.email }
        let login = StationLogin(
            server: client.baseURL, token: answer.token, expiresAt: answer.expiresAt, user: user,
            deviceName: deviceName, apiKey: apiKey)
        try login.save(databasePath: databasePath)
        return login
    }

    /// Ends the login on the server (when reachable) and removes the token file. Scans still
    /// in the outbox stay there and are pushed after the next login.
    public static func logOut(databasePath: String) async throws -> StationLogin? {
        guard let login = try StationLogin.load(databasePath: databasePath) else { return nil }
        let client = APIClient(baseURL: login.server, token: login.token, apiKey: login.apiKey)
        _ = try? await client.send(.POST, Routes.logout, as: Empty.self)
        try StationLogin.remove(databasePath: databasePath)
        return login
    }
}
