import ArgumentParser
import AuditClient
import ConnectedStation
import Foundation
import Station

extension AuditStation {
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "login",
            abstract: "Connect this station to an audit API server; every command then works through it.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The server, e.g. http://10.0.0.5:8080.") var server: String
        @Option var email: String
        @Flag(name: .customLong("password-stdin"), help: "Read the password from standard input (never from the command line).")
        var passwordStdin = false
        @Option(name: .customLong("device-name"), help: "This station's name on the server (default: the station name).")
        var deviceName: String?
        @Option(name: .customLong("api-key"), help: "The server's X-API-Key, if it needs one (default: $AUDIT_STATION_API_KEY).")
        var apiKey: String?

        func run() async throws {
            try await runReportingErrors {
                let config = try StationConfig.load(path: global.config)
                let path = global.database ?? StationContext.defaultDatabasePath()
                let password = try PasswordInput.read(fromStdin: passwordStdin, prompt: "Password for \(email): ")
                let key = apiKey ?? ProcessInfo.processInfo.environment["AUDIT_STATION_API_KEY"]
                let login = try await ConnectedStation.logIn(
                    server: server, email: email, password: password, deviceName: deviceName ?? config.resolvedStationName,
                    apiKey: key?.isEmpty == false ? key : nil, databasePath: path)
                Terminal.line(
                    "Logged in to \(login.server) as \(login.user.name) (\(login.user.userType.rawValue))\(login.expiresAt.map { " until \(ISO8601DateFormatter().string(from: $0))" } ?? "")"
                )
                Terminal.line("Token saved in \(StationLogin.path(forDatabase: path)) (readable by you only)")
            }
        }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "logout", abstract: "End the login; the station is standalone again.")
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await runReportingErrors {
                let path = global.database ?? StationContext.defaultDatabasePath()
                guard let login = try await ConnectedStation.logOut(databasePath: path) else {
                    return Terminal.line("This station is not logged in.")
                }
                Terminal.line("Logged out of \(login.server). Scans not yet synced stay here and sync after the next login.")
            }
        }
    }
}
