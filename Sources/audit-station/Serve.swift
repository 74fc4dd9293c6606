import ArgumentParser
import AuditServer
import Foundation
import HTTPGuard
import Station
import Hummingbird
import InventoryCore
import InventoryStore
import Logging
import PostgresStore

extension AuditStation {
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Run the audit API over this database, for several stations.",
            discussion: """
                By default the server keeps its data in the SQLite file of --database. With --postgres URL \
                (or postgres.url in the config file) it runs on PostgreSQL instead, and several servers may \
                share that database, with exact counts. Every server of one database must sign tokens with \
                the same key: give each the same --jwt-key-file or $AUDIT_STATION_JWT_SECRET (one of them is \
                required with PostgreSQL, which has no file to keep the key beside).
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var postgres: PostgresOption
        @OptionGroup var tls: TLSOptions
        @Option(help: "The address to listen on.") var host = "127.0.0.1"
        @Option(parsing: .unconditional, help: "The port to listen on.") var port = 8080
        @Option(name: .customLong("api-key"), help: "Require this key in X-API-Key on every /api call (default: $AUDIT_STATION_API_KEY).")
        var apiKey: String?
        @Option(
            name: .customLong("jwt-key-file"),
            help:
                "The token-signing key file, created mode 0600 (default: <database>.jwt-key; required with --postgres unless $AUDIT_STATION_JWT_SECRET is set, which overrides it)."
        )
        var jwtKeyFile: String?
        @Option(
            name: .customLong("max-connections"), parsing: .unconditional, help: "Connections open at once; more are answered 503 with Retry-After.")
        var maxConnections = 512
        @Option(
            name: .customLong("max-connections-per-address"), parsing: .unconditional,
            help: "Connections open at once from one address; more are answered 503 with Retry-After.")
        var maxPerAddress = 64
        @Option(
            name: .customLong("header-timeout"), parsing: .unconditional,
            help: "Seconds a connection may take to send a request's headers, or stay idle between requests; then 408.")
        var headerTimeout = 10
        @Option(name: .customLong("pool-size"), parsing: .unconditional, help: "With --postgres: the database connections this server opens at most.")
        var poolSize = 40

        func validate() throws {
            if !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535, not \(port)") }
            if !(1...100_000).contains(maxConnections) {
                throw ValidationError("--max-connections must be between 1 and 100000, not \(maxConnections)")
            }
            if !(1...100_000).contains(maxPerAddress) {
                throw ValidationError("--max-connections-per-address must be between 1 and 100000, not \(maxPerAddress)")
            }
            if !(1...600).contains(headerTimeout) {
                throw ValidationError("--header-timeout must be between 1 and 600 seconds, not \(headerTimeout)")
            }
            if !(1...1000).contains(poolSize) { throw ValidationError("--pool-size must be between 1 and 1000, not \(poolSize)") }
        }

        func run() async throws {
            try await runReportingErrors {
                let config = try StationConfig.load(path: global.config)
                let database = try ServerDatabase(postgres, global: global, config: config)
                let key = apiKey ?? ProcessInfo.processInfo.environment["AUDIT_STATION_API_KEY"]
                guard let signingKey = try SigningKeySource.resolve(file: jwtKeyFile, database: database.filePath) else {
                    throw StationError.usage(
                        """
                        a server on PostgreSQL needs its token-signing key: give --jwt-key-file PATH or set \
                        \(SigningKeySource.environmentVariable), the same on every server of the database
                        """)
                }
                let settings = ServerSettings(
                    host: host, port: port, apiKey: key?.isEmpty == false ? key : nil,
                    signingKey: signingKey,
                    limits: ConnectionLimits(
                        maxConnections: maxConnections, maxPerAddress: maxPerAddress, headerTimeout: .seconds(Int64(headerTimeout))),
                    tls: tls.files, decoder: config.decoder)
                let (backend, pool) = try await database.open(config: config, maxConnections: poolSize)
                try await Self.run(backend, pool: pool, settings: settings, config: config, label: "audit-station.serve") { port in
                    Terminal.error("Serving the audit API of \(database.description) on \(tls.scheme)://\(host):\(port) (OpenAPI at /openapi.yaml)")
                }
            }
        }

        /// Runs the API, with the back office page at `/`, over `backend` until SIGTERM or
        /// SIGINT; `announce` gets the bound port.
        static func run(
            _ backend: ServerBackend, pool: PostgresDatabase?, settings: ServerSettings, config: StationConfig, label: String,
            announce: @escaping @Sendable (Int) -> Void
        ) async throws {
            let parts = try await ServerParts(backend: backend, settings: settings, bcryptCost: try UserDirectory.configuredCost())
            var logger = Logger(label: label)
            logger.logLevel = .info
            let start = ListenStart()
            var app = try buildApplication(parts, settings: settings, logger: logger) { port in
                start.began()
                announce(port)
            }
            // The PostgreSQL pool runs in the server's service group: on SIGTERM or SIGINT the
            // HTTP server stops first, then the pool closes its connections.
            if let pool { app.addServices(pool) }
            app.addServices(PhotoRetentionService(photos: parts.backend.audits, retention: config.photos.retention, logger: logger))
            app.addServices(WebhookDeliverer(webhooks: parts.backend.webhooks, logger: logger))
            try await ListenError.whileListening(host: settings.host, port: settings.port, start: start) { try await app.runService() }
        }
    }
}
