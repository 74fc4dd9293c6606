import Station

extension StationContext {
    /// The context of a command: `--config` and `--database` from its options.
    static func make(_ global: GlobalOptions, user: String? = nil) throws -> StationContext {
        try open(configPath: global.config, databasePath: global.database, user: user)
    }
}
