import ArgumentParser
import AuditServer
import Foundation
import InventoryCore
import Station

extension AuditStation {
    struct Office: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "office",
            abstract: "Serve the back office page over this station's own database, with no server.",
            discussion: """
                The same page and API that `serve` gives, over the SQLite file of --database: log in with a user of that \
                file (`audit-station users create`). It listens on 127.0.0.1 unless --host says otherwise. A kiosk or \
                `audit scan` may run on the same file at the same time.
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var tls: TLSOptions
        @Option(help: "The address to listen on.") var host = "127.0.0.1"
        @Option(parsing: .unconditional, help: "The port to listen on (0: any free port).") var port = 8070
        @Option(
            name: .customLong("jwt-key-file"),
            help: "The token-signing key file, created mode 0600 (default: <database>.jwt-key; $AUDIT_STATION_JWT_SECRET overrides it).")
        var jwtKeyFile: String?

        func validate() throws {
            if !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535, not \(port)") }
        }

        func run() async throws {
            try await runReportingErrors {
                let config = try StationConfig.load(path: global.config)
                let database = ServerDatabase.sqlite(path: global.database ?? StationContext.defaultDatabasePath())
                guard let signingKey = try SigningKeySource.resolve(file: jwtKeyFile, database: database.filePath) else {
                    throw StationError.usage("the back office needs its token-signing key: give --jwt-key-file PATH")
                }
                let settings = ServerSettings(host: host, port: port, signingKey: signingKey, tls: tls.files, decoder: config.decoder)
                let (backend, _) = try await database.open(config: config)
                if try await backend.users.all().isEmpty {
                    Terminal.error(
                        "This database has no users yet: add one with `audit-station users create --email E --name N --type ADMIN` to log in")
                }
                try await Serve.run(backend, pool: nil, settings: settings, config: config, label: "audit-station.office") { port in
                    Terminal.error("The back office of \(database.description) is on \(tls.scheme)://\(host):\(port)/")
                }
            }
        }
    }
}
