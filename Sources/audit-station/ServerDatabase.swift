import ArgumentParser
import Foundation
import InventoryCore
import InventoryStore
import PostgresStore
import Station

/// `--postgres URL`: the server's database when it is PostgreSQL rather than the SQLite file.
struct PostgresOption: ParsableArguments {
    @Option(name: .customLong("postgres"), help: ArgumentHelp(
        "The server's PostgreSQL database, postgres://USER:PASSWORD@HOST:PORT/DATABASE[?sslmode=disable|prefer|require|verify-full] (default: postgres.url of --config; without either, the SQLite file of --database).",
        valueName: "url"))
    var url: String?
}

/// The database a server command works on: PostgreSQL when `--postgres` or the config's
/// `postgres.url` names one (the option wins), else the SQLite file.
enum ServerDatabase {
    case sqlite(path: String)
    case postgres(PostgresURL)

    init(_ option: PostgresOption, global: GlobalOptions, config: StationConfig) throws {
        if let text = option.url ?? config.postgres?.url {
            self = .postgres(try PostgresURL(text))
        } else {
            self = .sqlite(path: global.database ?? StationContext.defaultDatabasePath())
        }
    }

    /// Where the data is, for messages; never with a password.
    var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): url.description
        }
    }

    /// The SQLite file's path, where a server keeps its signing key beside it; nil for PostgreSQL.
    var filePath: String? {
        if case .sqlite(let path) = self { return path }
        return nil
    }

    /// Runs `body` with the back end open (on PostgreSQL: the schema migrated and a pool of
    /// `maxConnections`), and closes a PostgreSQL pool after it.
    func withBackend<T>(config: StationConfig, maxConnections: Int = 8, _ body: (ServerBackend) async throws -> T) async throws -> T {
        switch self {
        case .sqlite(let path):
            return try await body(.sqlite(try AppDatabase(path: path), caseSensitive: config.caseSensitiveTags,
                                          defaultStation: config.resolvedStationName))
        case .postgres(let url):
            let database = try await PostgresDatabase.open(url, maxConnections: maxConnections)
            do {
                let result = try await body(.postgres(database, caseSensitive: config.caseSensitiveTags, defaultStation: config.resolvedStationName))
                await database.close()
                return result
            } catch {
                await database.close()
                throw error
            }
        }
    }
}
