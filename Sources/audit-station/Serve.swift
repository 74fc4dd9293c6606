import ArgumentParser
import AuditServer
import Foundation
import Station
import Hummingbird
import InventoryCore
import InventoryStore
import Logging

extension AuditStation {
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run the audit API over this database, for several stations.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The address to listen on.") var host = "127.0.0.1"
        @Option(help: "The port to listen on.") var port = 8080
        @Option(name: .customLong("api-key"), help: "Require this key in X-API-Key on every /api call (default: $AUDIT_STATION_API_KEY).")
        var apiKey: String?
        @Option(name: .customLong("jwt-key-file"),
                help: "The token-signing key file, created mode 0600 (default: <database>.jwt-key; $AUDIT_STATION_JWT_SECRET overrides).")
        var jwtKeyFile: String?
        @Option(name: .customLong("max-connections"), help: "Connections open at once; more are answered 503 with Retry-After.")
        var maxConnections = 512

        func validate() throws {
            if !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535, not \(port)") }
            if !(1...100_000).contains(maxConnections) {
                throw ValidationError("--max-connections must be between 1 and 100000, not \(maxConnections)")
            }
        }

        func run() async throws {
            try await runReportingErrors {
                let config = try StationConfig.load(path: global.config)
                let path = global.database ?? StationContext.defaultDatabasePath()
                let key = apiKey ?? ProcessInfo.processInfo.environment["AUDIT_STATION_API_KEY"]
                let settings = ServerSettings(host: host, port: port, apiKey: key?.isEmpty == false ? key : nil,
                                              signingKey: try SigningKeySource.resolve(file: jwtKeyFile, database: path),
                                              limits: ConnectionLimits(maxConnections: maxConnections))
                let backend = ServerBackend.sqlite(try AppDatabase(path: path), caseSensitive: config.caseSensitiveTags,
                                                   defaultStation: config.resolvedStationName)
                let parts = try await ServerParts(backend: backend, settings: settings)
                var logger = Logger(label: "audit-station.serve")
                logger.logLevel = .info
                let app = buildApplication(parts, settings: settings, logger: logger) { port in
                    Terminal.error("Serving the audit API of \(path) on http://\(host):\(port) (OpenAPI at /openapi.yaml)")
                }
                try await app.runService()
            }
        }
    }
}
