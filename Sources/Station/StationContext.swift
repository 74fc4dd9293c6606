import AuditClient
import ConnectedStation
import Foundation
import InventoryCore
import InventoryStore

/// What a front end works with: the configuration, who is acting, the four services, and the
/// server connection when there is one. Standalone, the services are the local SQLite store;
/// once the station has logged in to a server, they are the remote ones (AuditClient), and the
/// commands and the kiosk do not know the difference. What only a connected station can do
/// is behind `connection`, a capability rather than a downcast.
public struct StationContext: Sendable {
    /// The configuration; a command's options (`--location`) override parts of it.
    public var config: StationConfig
    public let databasePath: String
    public let actor: Actor
    public let audit: any AuditService
    public let assets: any AssetService
    public let accessories: any AccessoryService
    public let customers: any CustomerService
    /// The server link of a connected station; nil when standalone.
    public let connection: (any StationConnection)?
    /// The webhooks of a standalone station's database, whose outbox a process that serves it
    /// delivers; nil when connected (the server delivers).
    public var webhooks: (any WebhookService)? = nil
    /// The station's own SQLite file (a connected station's outbox and copies live there too).
    public var database: AppDatabase? = nil

    public var isConnected: Bool { connection != nil }

    /// Reads the configuration at `configPath` (defaults when nil) and opens the database at
    /// `databasePath` (the user's data folder when nil).
    public static func open(configPath: String?, databasePath: String?, user: String? = nil) throws -> StationContext {
        try open(config: StationConfig.load(path: configPath), databasePath: databasePath ?? defaultDatabasePath(), user: user)
    }

    public static func open(config: StationConfig, databasePath path: String, user: String? = nil) throws -> StationContext {
        let actor = Actor(user: user ?? loginName(), station: config.resolvedStationName)
        let database = try AppDatabase(path: path)
        if let station = try ConnectedStation.open(
            databasePath: path, database: database, station: actor.station,
            caseSensitive: config.caseSensitiveTags)
        {
            return StationContext(
                config: config, databasePath: path, actor: Actor(user: station.login.user.name, station: station.audit.stationName),
                audit: station.audit, assets: station.assets, accessories: station.accessories, customers: station.customers,
                connection: station.audit, database: database)
        }
        return StationContext(
            config: config, databasePath: path, actor: actor,
            audit: SQLiteAuditService(database: database, caseSensitive: config.caseSensitiveTags, defaultStation: actor.station),
            assets: SQLiteAssetService(database: database, caseSensitive: config.caseSensitiveTags),
            accessories: SQLiteAccessoryService(database: database),
            customers: SQLiteCustomerService(database: database),
            connection: nil, webhooks: SQLiteWebhookService(database: database), database: database)
    }

    /// `$XDG_DATA_HOME/audit-station/station.sqlite`, else `~/.local/share/audit-station/station.sqlite`.
    public static func defaultDatabasePath() -> String {
        dataDirectory().appendingPathComponent("station.sqlite").path
    }

    public static func dataDirectory() -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent("audit-station")
    }

    /// The login name of the process.
    public static func loginName() -> String {
        let environment = ProcessInfo.processInfo.environment
        return environment["USER"] ?? environment["LOGNAME"] ?? NSUserName()
    }
}
