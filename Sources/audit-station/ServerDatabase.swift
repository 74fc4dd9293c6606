import ArgumentParser
import Foundation
import InventoryCore
import InventoryStore
import PostgresStore
import Station

/// `--postgres URL`: the server's database when it is PostgreSQL rather than the SQLite file.
struct PostgresOption: ParsableArguments {
    @Option(
        name: .customLong("postgres"),
        help: ArgumentHelp(
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

    /// The back end open (on PostgreSQL: the schema migrated), and on PostgreSQL the pool of
    /// `maxConnections` that must run while the back end is used: a server runs it among its
    /// services; `withBackend` runs it for a scope.
    func open(config: StationConfig, maxConnections: Int = 8) async throws -> (backend: ServerBackend, pool: PostgresDatabase?) {
        switch self {
        case .sqlite(let path):
            let database = try AppDatabase(path: path)
            return (.sqlite(database, caseSensitive: config.caseSensitiveTags, defaultStation: config.resolvedStationName), nil)
        case .postgres(let url):
            let database = try await PostgresDatabase.open(url, maxConnections: maxConnections)
            return (.postgres(database, caseSensitive: config.caseSensitiveTags, defaultStation: config.resolvedStationName), database)
        }
    }

    /// Runs `body` with the back end open (on PostgreSQL: its pool running for the span of
    /// `body`, and closed after).
    func withBackend<T>(config: StationConfig, maxConnections: Int = 8, _ body: (ServerBackend) async throws -> T) async throws -> T {
        let (backend, pool) = try await open(config: config, maxConnections: maxConnections)
        guard let pool else { return try await body(backend) }
        return try await pool.whileRunning { try await body(backend) }
    }
}
