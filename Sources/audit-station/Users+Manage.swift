import ArgumentParser
import AuditAPI
import AuditServer
import Foundation
import InventoryCore
import InventoryStore
import Station

extension AuditStation.Users {
    /// Runs `body` with the users of the server's database: `--postgres` (or the config's
    /// `postgres.url`), else `--database`, else the station's default file.
    static func withStore<T>(_ global: GlobalOptions, _ postgres: PostgresOption, _ body: (any UserStore) async throws -> T) async throws -> T {
        let config = try StationConfig.load(path: global.config)
        return try await ServerDatabase(postgres, global: global, config: config).withBackend(config: config, maxConnections: 2) { backend in
            try await body(backend.users)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the users of the audit API.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var postgres: PostgresOption
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let users = try await AuditStation.Users.withStore(global, postgres) { try await $0.all() }
                if json { return try Terminal.json(UsersResponse(users: users.map(UserRecord.init))) }
                Terminal.table(
                    ["ID", "EMAIL", "NAME", "TYPE", "COUNTRIES", "EDITS ASSETS", "STATE"],
                    users.map {
                        [
                            String($0.id), $0.email, $0.name, $0.userType, $0.countries.isEmpty ? "all" : $0.countries.joined(separator: ","),
                            $0.canEditAssets ? "yes" : "no", $0.disabledAt.map { "disabled \(ISOTime.string($0))" } ?? "active"
                        ]
                    })
            }
        }
    }

    struct Passwd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "passwd",
            abstract: "Set a user's password; the user's earlier logins stop working.",
            discussion: "The password is read from standard input (--password-stdin) or asked for at the terminal, never taken from the command line."
        )
        @OptionGroup var global: GlobalOptions
        @OptionGroup var postgres: PostgresOption
        @Option var email: String
        @Flag(name: .customLong("password-stdin"), help: "Read the new password from the first line of standard input.")
        var passwordStdin = false

        func run() async throws {
            try await runReportingErrors {
                let secret = try PasswordInput.read(fromStdin: passwordStdin, prompt: "New password for \(email): ")
                let user = try await AuditStation.Users.withStore(global, postgres) { store in
                    try await UserDirectory(store: store, cost: try UserDirectory.configuredCost()).changePassword(email: email, to: secret)
                }
                Terminal.line("Changed the password of \(user.email); its earlier logins no longer work")
            }
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "disable",
            abstract: "Disable a user: no new logins, and every token it holds stops working. --enable lets it log in again.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var postgres: PostgresOption
        @Option var email: String
        @Flag(help: "Enable the user again instead.") var enable = false

        func run() async throws {
            try await runReportingErrors {
                let user = try await AuditStation.Users.withStore(global, postgres) { try await $0.setDisabled(email: email, !enable) }
                Terminal.line(enable ? "Enabled \(user.email); it may log in again" : "Disabled \(user.email); its logins no longer work")
            }
        }
    }
}
