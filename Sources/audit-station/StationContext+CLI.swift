import InventoryCore
import Station

extension StationContext {
    /// The context of a command: `--config` and `--database` from its options.
    static func make(_ global: GlobalOptions, user: String? = nil) throws -> StationContext {
        try open(configPath: global.config, databasePath: global.database, user: user)
    }

    /// The audit to scan into. A connected station first looks in its local copy, so it starts
    /// at once whatever the network does; only an audit it holds no copy of is asked for, after
    /// a two-second check that the server answers at all.
    func heldOrActiveAudit(_ choice: AuditChoice) async throws -> AuditSession {
        if let connection {
            let held = try await connection.heldAudits()
            if let id = choice.auditID {
                if let found = held.first(where: { $0.id == id }) { return found }
            } else {
                // The copy held decides, unless it holds none (of the country): then the server does.
                do { return try AuditSession.onlyRunning(among: held, country: choice.country) } catch InventoryError.noActiveAudit {}
            }
            // No copy to decide from: the server must answer, but a short check says at once
            // when it cannot, instead of the HTTP client's full deadline.
            guard await connection.probe(timeout: .seconds(2)) else {
                throw InventoryError.unavailable(
                    "This station holds no copy of a running audit\(choice.country.map { " of \($0.uppercased())" } ?? "") and the server at \(connection.server) does not answer; scan again when it is back (the audit is joined then)"
                )
            }
        }
        return try await audit.resolveActive(auditID: choice.auditID, country: choice.country)
    }
}
