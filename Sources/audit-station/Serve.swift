import ArgumentParser
import AuditServer
import Foundation
import Station
import Hummingbird
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

        func run() async throws {
            try await runReportingErrors {
                let config = try StationConfig.load(path: global.config)
                let path = global.database ?? StationContext.defaultDatabasePath()
                let key = apiKey ?? ProcessInfo.processInfo.environment["AUDIT_STATION_API_KEY"]
                let settings = ServerSettings(host: host, port: port, apiKey: key?.isEmpty == false ? key : nil,
                                              caseSensitiveTags: config.caseSensitiveTags, defaultStation: config.resolvedStationName)
                let parts = try await ServerParts(database: try AppDatabase(path: path), settings: settings)
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
