import ArgumentParser

/// Options every command accepts, before or after the subcommand name.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "The station's SQLite database (default: $XDG_DATA_HOME/audit-station/station.sqlite).")
    var database: String?

    @Option(name: .long, help: "A station configuration file (JSON; see config/station.json).")
    var config: String?
}
