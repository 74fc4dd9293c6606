import ArgumentParser
import AuditAPI
import AuditServer
import Foundation
import Station
import InventoryStore

extension AuditStation {
    struct Users: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "users",
            abstract: "Manage the users of the audit API (`serve`).",
            subcommands: [Create.self, List.self, Passwd.self, Disable.self, RotateKey.self])
    }
}

extension UserType: ExpressibleByArgument {}

extension AuditStation.Users {
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Add a user; use it for the first admin.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var postgres: PostgresOption
        @Option var email: String
        @Flag(
            name: .customLong("password-stdin"),
            help: "Read the password (at least 8 characters) from the first line of standard input; without it, it is asked for at the terminal.")
        var passwordStdin = false
        @Option var name: String
        @Option(help: "ADMIN, STAFF or CLIENT.") var type: UserType
        @Option(help: "Countries the user may audit, comma-separated (SG,MY); none means every country.") var countries: String?
        @Flag(name: .customLong("can-edit-assets"), help: "May create, edit and delete assets and accessories.")
        var canEditAssets = false
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let secret = try PasswordInput.read(fromStdin: passwordStdin, prompt: "Password for \(email): ")
                let codes = (countries ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                let user = try await AuditStation.Users.withStore(global, postgres) { store in
                    try await UserDirectory(store: store, cost: try UserDirectory.configuredCost()).create(
                        email: email, password: secret, name: name, type: type,
                        countries: codes, canEditAssets: canEditAssets)
                }
                if json { return try Terminal.json(user) }
                let scope = user.countries.isEmpty ? "every country" : user.countries.joined(separator: ", ")
                Terminal.line(
                    "Created user \(user.id): \(user.name) <\(user.email)>, \(user.userType.rawValue), audits \(scope)\(user.canEditAssets ? ", can edit assets" : "")"
                )
            }
        }
    }
}

extension AuditStation.Users {
    struct RotateKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-key",
            abstract: "Replace the server's token-signing key; every user must log in again.",
            discussion:
                "A running `serve` picks the new key up within a second. With $AUDIT_STATION_JWT_SECRET set, change that instead and restart the server."
        )
        @OptionGroup var global: GlobalOptions
        @Option(name: .customLong("jwt-key-file"), help: "The key file (default: <database>.jwt-key).") var jwtKeyFile: String?

        func run() async throws {
            try await runReportingErrors {
                let path = jwtKeyFile ?? (global.database ?? StationContext.defaultDatabasePath()) + ".jwt-key"
                try SigningKeyFile.rotate(path: path)
                Terminal.line("Replaced the signing key in \(path); every login token issued before now no longer works")
            }
        }
    }
}
