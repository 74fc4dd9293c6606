import Foundation
import InventoryCore
import PostgresNIO

/// The audit workflow over PostgreSQL, for servers that share one database. The rules are
/// `AuditRules`, as on SQLite; what differs is how a scan's transaction is made exact when
/// several processes write at once (see `+Scan`).
public struct PostgresAuditService: ServerAuditService {
    let database: PostgresDatabase
    /// Tags and serials match exactly unless configured otherwise.
    let caseSensitive: Bool
    /// The station name recorded when a scan does not name one.
    let defaultStation: String
    /// Whether the end of an audit starts writing its `last_audited_at` times once it has
    /// committed (`startLastAuditedCatchUp`); a test turns it off to read them while pending.
    let lastAuditedCatchUp: Bool

    public init(database: PostgresDatabase, caseSensitive: Bool = true, defaultStation: String = "server", lastAuditedCatchUp: Bool = true) {
        self.database = database
        self.caseSensitive = caseSensitive
        self.defaultStation = defaultStation
        self.lastAuditedCatchUp = lastAuditedCatchUp
    }

    public func countries() async throws -> [CountryCount] {
        try await database.read { c in
            var active: [String: String] = [:]
            for row in try await c.rows("SELECT country, id FROM audits WHERE ended_at IS NULL") {
                let country: String = try row.get("country")
                if active[country] == nil { active[country] = try row.get("id") }
            }
            var counts = try await c.rows(
                """
                SELECT country, count(*) AS n FROM assets WHERE status NOT IN ('ARCHIVED','DISPOSED') GROUP BY country
                """
            ).map { row in
                let country: String = try row.get("country")
                return CountryCount(country: country, expectedAssets: try row.get("n"), activeAuditId: active[country])
            }
            for (country, id) in active where !counts.contains(where: { $0.country == country }) {
                counts.append(CountryCount(country: country, expectedAssets: 0, activeAuditId: id))
            }
            return counts.sorted { $0.country < $1.country }
        }
    }

    public func activeAudits() async throws -> [AuditSession] {
        try await database.read { c in
            try await c.rows("SELECT \(unescaped: PGRows.sessionColumns) FROM audits WHERE ended_at IS NULL ORDER BY country COLLATE \"C\"")
                .map(PGRows.session)
        }
    }

    public func audit(id: AuditID) async throws -> AuditSession {
        try await database.read { c in try await PGRows.fetchSession(c, id: id) }
    }

    /// From this process's memory after the first time: an audit's country never changes.
    public func country(ofAudit id: AuditID) async throws -> String {
        if let country = database.auditCountries.withLock({ $0[id] }) { return country }
        let country = try await audit(id: id).country
        database.auditCountries.withLock { countries in
            if countries.count >= 10_000 { countries.removeAll() }
            countries[id] = country
        }
        return country
    }

    public func locations(country: String) async throws -> [LocationCount] {
        let code = try checked { try Country.normalize(country) }
        return try await database.read { c in try await Self.locations(c, country: code) }
    }

    static func locations(_ c: PostgresConnection, country: String) async throws -> [LocationCount] {
        try await c.rows(
            """
            SELECT location, count(*) AS n FROM assets
            WHERE country = \(country) AND status NOT IN ('ARCHIVED','DISPOSED') AND location IS NOT NULL
            GROUP BY location ORDER BY location COLLATE "C"
            """
        ).map { LocationCount(location: try $0.get("location"), expectedAssets: try $0.get("n")) }
    }

    /// Fixes the expected set (every asset of the country that is not ARCHIVED or DISPOSED)
    /// and opens the audit, in one transaction. The partial unique index on running audits
    /// decides between two servers starting the same country at once: the second is told to join.
    public func start(country: String, locations: [String], by actor: Actor) async throws -> AuditSession {
        let code = try checked { try Country.normalize(country) }
        let wanted = try AuditLocations.normalize(locations)
        return try await database.transaction { c in
            let scope = AuditLocations.text(wanted)
            if scope != nil {
                let known = try await Self.locations(c, country: code).map(\.location)
                let missing = wanted.filter { !known.contains($0) }
                if !missing.isEmpty { throw AuditLocations.unknown(missing, country: code, known: known) }
            }
            let id = UUID().uuidString.lowercased()
            let opened = try await c.row(
                """
                INSERT INTO audits (id, country, total_assets, started_at, started_by, locations)
                VALUES (\(id), \(code), 0, \(Date()), \(actor.user), \(scope))
                ON CONFLICT (country) WHERE ended_at IS NULL DO NOTHING RETURNING id
                """)
            guard opened != nil else {
                let running = try await c.row("SELECT id FROM audits WHERE country = \(code) AND ended_at IS NULL")
                throw InventoryError.auditAlreadyActive(country: code, auditID: try running?.get("id") ?? "")
            }
            try await c.run(
                """
                WITH expected AS (
                    INSERT INTO audit_expected (audit_id, asset_id, asset_tag, serial_num, name, model, status, location, company, country)
                    SELECT \(id), id, asset_tag, serial_num, name, model, status, location, company, country FROM assets
                    WHERE country = \(code) AND status NOT IN ('ARCHIVED','DISPOSED') AND (\(wanted.isEmpty) OR location = ANY(\(wanted)))
                    RETURNING 1)
                UPDATE audits SET total_assets = (SELECT count(*) FROM expected) WHERE id = \(id)
                """)
            try await c.run(
                """
                INSERT INTO audit_location_expected (audit_id, location, expected)
                SELECT audit_id, location, count(*) FROM audit_expected WHERE audit_id = \(id) GROUP BY audit_id, location
                """)
            try await PGAccessoryCounts.expect(c, auditID: id, country: code, locations: wanted)
            let session = try await PGRows.fetchSession(c, id: id)
            try await PGWebhookRows.queue(c, .auditStarted, subject: ReportSummary(session), at: session.startedAt)
            return session
        }
    }

    /// Ends the audit under its row lock, so it waits for scans in flight, and scans waiting for
    /// the lock find it ended. Its `last_audited_at` times are written after the commit
    /// (`PGLastAudited`).
    public func end(auditID: AuditID, by actor: Actor) async throws -> AuditSummary {
        let summary = try await database.transaction { c in
            guard let row = try await c.row("SELECT ended_at, country, locations FROM audits WHERE id = \(auditID) FOR UPDATE") else {
                throw InventoryError.notFound("audit \(auditID)")
            }
            guard try row.get("ended_at", as: Date?.self) == nil else { throw InventoryError.auditEnded(auditID) }
            let endedAt = Date()
            try await c.run("UPDATE audits SET ended_at = \(endedAt), ended_by = \(actor.user) WHERE id = \(auditID)")
            try await PGLastAudited.audited(c, auditID: auditID)
            try await PGPlanRows.audited(
                c, auditID: auditID, country: try row.get("country"), locations: AuditLocations.list(try row.get("locations")), endedAt: endedAt)
            let summary = try await Self.summary(c, auditID: auditID)
            try await PGWebhookRows.queue(
                c, .auditEnded, subject: ReportSummary(summary.audit, byStation: summary.byStation ?? [], byUser: summary.byUser ?? []), at: endedAt)
            return summary
        }
        if lastAuditedCatchUp { startLastAuditedCatchUp() }
        return summary
    }

    /// Writes, in the background, the `last_audited_at` times of the ended audits still pending
    /// (`PGLastAudited.catchUp`), a batch a transaction. A process that ends before leaves the
    /// rest to the next one; reads merge it meanwhile.
    public func startLastAuditedCatchUp() {
        let database = database
        // A failed batch (a deadlock with a transaction writing the same assets, the database out
        // of reach) is tried again, then left for the next catch-up.
        BackgroundCatchUp.start(
            isPending: { try await database.read { c in try await PGLastAudited.isPending(c) } },
            batch: { try await database.transaction(.readCommitted) { c in try await PGLastAudited.catchUp(c) } })
    }

    /// Whether an ended audit's `last_audited_at` times are not all written yet.
    public func lastAuditedPending() async throws -> Bool {
        try await database.read { c in try await PGLastAudited.isPending(c) }
    }

    /// Writes up to `batches` batches (every one when nil) of `batch` assets (`PGLastAudited.batch`
    /// when nil) of the pending `last_audited_at` times now (tests, tools). Whether any remain.
    @discardableResult
    public func catchUpLastAudited(batch: Int? = nil, batches: Int? = nil) async throws -> Bool {
        let size = batch ?? PGLastAudited.batch
        var done = 0
        while batches.map({ done < $0 }) ?? true {
            guard try await database.transaction(.readCommitted, { c in try await PGLastAudited.catchUp(c, batch: size) }) else { return false }
            done += 1
        }
        return true
    }

    /// The summary of an audit, running or ended.
    public func summary(auditID: AuditID) async throws -> AuditSummary {
        try await database.read { c in try await Self.summary(c, auditID: auditID) }
    }

    static func summary(_ c: PostgresConnection, auditID: AuditID) async throws -> AuditSummary {
        let audit = try await PGRows.fetchSession(c, id: auditID)
        let limit = AuditSummary.listLimit
        var binds = PostgresBindings()
        binds.append(auditID)
        binds.append(limit)
        let missing = try await c.rows(
            PostgresQuery(
                unsafeSQL: PGRows.expectedSQL + " AND e.first_scan_id IS NULL ORDER BY e.asset_id LIMIT $2",
                binds: binds)
        ).map(PGRows.expectedEntry)
        let unexpected = try await c.rows(
            PostgresQuery(
                unsafeSQL: PGRows.unexpectedSQL + " ORDER BY u.first_scan_id LIMIT $2",
                binds: binds)
        ).map(PGRows.unexpectedEntry)
        return AuditSummary(
            audit: audit, missing: missing, unexpected: unexpected,
            byStation: try await tallies(c, auditID: auditID, by: "station"),
            byUser: try await tallies(c, auditID: auditID, by: "user_name"))
    }

    public func history(country: String?, query: ListQuery) async throws -> Page<AuditSession> {
        try await history(country: country, within: nil, query: query)
    }

    public func history(_ filter: AuditHistoryFilter, within allowed: Set<String>?, query: ListQuery) async throws -> Page<AuditSession> {
        let code = try checked { try filter.country.map { try Country.normalize($0) } }
        return try await database.read { c in
            var conditions: [String] = []
            var binds = Binds()
            if let code { conditions.append("country = \(binds.add(code))") }
            // Case-insensitive in ASCII ("dock a" finds "Dock A"), as SQLite's NOCASE: lower() under the C collation folds ASCII only.
            if let location = filter.location {
                conditions.append(
                    "(locations IS NULL OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(locations::jsonb) AS l(name) "
                        + "WHERE lower(l.name COLLATE \"C\") = lower(\(binds.add(location)) COLLATE \"C\")))")
            }
            if let from = filter.startedFrom { conditions.append("started_at >= \(binds.add(from))") }
            if let before = filter.startedBefore { conditions.append("started_at < \(binds.add(before))") }
            if let allowed { conditions.append("country = ANY(\(binds.add(allowed.sorted())))") }
            let whereSQL = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            let total = try await c.count("SELECT id FROM audits" + whereSQL, binds.bindings)
            let limit = binds.add(query.perPage), offset = binds.add(query.offset)
            let items = try await c.rows(
                PostgresQuery(
                    unsafeSQL: "SELECT \(PGRows.sessionColumns) FROM audits\(whereSQL) ORDER BY started_at DESC LIMIT \(limit) OFFSET \(offset)",
                    binds: binds.bindings)
            ).map(PGRows.session)
            return Page(items: items, pagination: Pagination(query: query, total: total))
        }
    }
}

/// Runs input checks that come before a transaction, reporting their field errors as
/// `InventoryError.invalid` like every other failure of the services.
func checked<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as ValidationError { throw InventoryError.invalid(error) }
}
