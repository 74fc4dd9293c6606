extension AuditSession {
    /// The running audit a call acts on when it names none: among `running` (audits that have
    /// not ended, as the caller sees them), the one of `country` when a country is named, else
    /// the only one. Every service, the server, the connected station and the CLI choose here.
    ///
    /// - Throws: `InventoryError.noActiveAudit(country:)` when none is running (in `country`);
    ///   `InventoryError.ambiguousAudit` with the running countries, sorted, when several are
    ///   running and no country was named; a `ValidationError` when `country` is not a country
    ///   code.
    public static func onlyRunning(among running: [AuditSession], country: String? = nil) throws -> AuditSession {
        if let country {
            let code = try Country.normalize(country)
            guard let audit = running.first(where: { $0.country == code }) else { throw InventoryError.noActiveAudit(country: code) }
            return audit
        }
        switch running.count {
        case 0: throw InventoryError.noActiveAudit(country: nil)
        case 1: return running[0]
        default: throw InventoryError.ambiguousAudit(countries: running.map(\.country).sorted())
        }
    }
}
