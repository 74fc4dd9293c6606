import InventoryCore
import Station

extension StationContext {
    /// The context of a command: `--config` and `--database` from its options.
    static func make(_ global: GlobalOptions, user: String? = nil) throws -> StationContext {
        try open(configPath: global.config, databasePath: global.database, user: user)
    }

    /// The audit to scan into. A connected station first looks in its local copy, so it starts
    /// at once whatever the network does; only an audit it holds no copy of is asked for.
    func heldOrActiveAudit(_ choice: AuditChoice) async throws -> AuditSession {
        if let connection {
            let held = try await connection.heldAudits()
            if let id = choice.auditID {
                if let found = held.first(where: { $0.id == id }) { return found }
            } else {
                let country = try choice.country.map { try Country.normalize($0) }
                let matching = held.filter { country == nil || $0.country == country }
                if matching.count == 1 { return matching[0] }
                if matching.count > 1 { throw InventoryError.ambiguousAudit(countries: matching.map(\.country)) }
            }
        }
        return try await audit.resolveActive(auditID: choice.auditID, country: choice.country)
    }
}
