import AuditClient
import Foundation
import InventoryCore
import InventoryStore

/// What a command works with: the configuration, who is acting, and the four services.
/// Standalone, the services are the local SQLite store; once the station has logged in to a
/// server, they are the remote ones (AuditClient), and the commands do not know the difference.
struct StationContext {
    let config: StationConfig
    let databasePath: String
    let actor: Actor
    let audit: any AuditService
    let assets: any AssetService
    let accessories: any AccessoryService
    let customers: any CustomerService

    static func make(_ global: GlobalOptions, user: String? = nil) throws -> StationContext {
        let config = try StationConfig.load(path: global.config)
        let path = global.database ?? defaultDatabasePath()
        let actor = Actor(user: user ?? loginName(), station: config.resolvedStationName)
        let database = try AppDatabase(path: path)
        // MARK: connected mode
        if let station = try ConnectedStation.open(databasePath: path, database: database, station: actor.station,
                                                   caseSensitive: config.caseSensitiveTags) {
            return StationContext(
                config: config, databasePath: path, actor: Actor(user: station.login.user.name, station: actor.station),
                audit: station.audit, assets: station.assets, accessories: station.accessories, customers: station.customers)
        }
        return StationContext(
            config: config, databasePath: path, actor: actor,
            audit: SQLiteAuditService(database: database, caseSensitive: config.caseSensitiveTags, defaultStation: actor.station),
            assets: SQLiteAssetService(database: database),
            accessories: SQLiteAccessoryService(database: database),
            customers: SQLiteCustomerService(database: database))
    }

    /// `$XDG_DATA_HOME/audit-station/station.sqlite`, else `~/.local/share/audit-station/station.sqlite`.
    static func defaultDatabasePath() -> String {
        dataDirectory().appendingPathComponent("station.sqlite").path
    }

    static func dataDirectory() -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent("audit-station")
    }

    /// The login name of the process.
    static func loginName() -> String {
        let environment = ProcessInfo.processInfo.environment
        return environment["USER"] ?? environment["LOGNAME"] ?? NSUserName()
    }
}
