import Foundation
import GRDB
import InventoryCore

/// The audit workflow over the station's SQLite file: the standalone station's authority,
/// and the server's.
public struct SQLiteAuditService: ServerAuditService {
    public let database: AppDatabase
    /// Tags and serials match exactly unless configured otherwise.
    let caseSensitive: Bool
    /// The station name recorded when a scan does not name one.
    let defaultStation: String
    /// Whether the end of an audit starts writing its `last_audited_at` times once it has
    /// committed (`startLastAuditedCatchUp`); a test turns it off to read them while pending.
    let lastAuditedCatchUp: Bool

    public init(database: AppDatabase, caseSensitive: Bool = true, defaultStation: String = "station", lastAuditedCatchUp: Bool = true) {
        self.database = database
        self.caseSensitive = caseSensitive
        self.defaultStation = defaultStation
        self.lastAuditedCatchUp = lastAuditedCatchUp
    }

    public func countries() async throws -> [CountryCount] {
        try await database.read { db in
            let active = try Dictionary(
                Row.fetchAll(db, sql: "SELECT country, id FROM audits WHERE ended_at IS NULL")
                    .map { ($0["country"] as String, $0["id"] as String) }, uniquingKeysWith: { first, _ in first })
            var counts = try Row.fetchAll(
                db,
                sql: """
                    SELECT country, count(*) AS n FROM assets WHERE status NOT IN ('ARCHIVED','DISPOSED') GROUP BY country
                    """
            ).map { CountryCount(country: $0["country"], expectedAssets: $0["n"], activeAuditId: active[$0["country"]]) }
            for (country, id) in active where !counts.contains(where: { $0.country == country }) {
                counts.append(CountryCount(country: country, expectedAssets: 0, activeAuditId: id))
            }
            return counts.sorted { $0.country < $1.country }
        }
    }

    public func locations(country: String) async throws -> [LocationCount] {
        let code = try checked { try Country.normalize(country) }
        return try await database.read { db in try Self.locations(db, country: code) }
    }

    static func locations(_ db: Database, country: String) throws -> [LocationCount] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT location, count(*) AS n FROM assets
                WHERE country = ? AND status NOT IN ('ARCHIVED','DISPOSED') AND location IS NOT NULL
                GROUP BY location ORDER BY location
                """, arguments: [country]
        ).map { LocationCount(location: $0["location"], expectedAssets: $0["n"]) }
    }

    public func activeAudits() async throws -> [AuditSession] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM audits WHERE ended_at IS NULL ORDER BY country").map(AuditRows.session)
        }
    }

    public func audit(id: AuditID) async throws -> AuditSession {
        try await database.read { db in try AuditRows.fetchSession(db, id: id) }
    }

    /// Fixes the expected set (every asset of the country that is not ARCHIVED or DISPOSED)
    /// and opens the audit, in one transaction.
    public func start(country: String, locations: [String], by actor: Actor) async throws -> AuditSession {
        let code = try checked { try Country.normalize(country) }
        let wanted = try AuditLocations.normalize(locations)
        return try await database.write { db in
            if let running = try String.fetchOne(db, sql: "SELECT id FROM audits WHERE country = ? AND ended_at IS NULL", arguments: [code]) {
                throw InventoryError.auditAlreadyActive(country: code, auditID: running)
            }
            let scope = AuditLocations.text(wanted)
            if scope != nil {
                let known = try Self.locations(db, country: code).map(\.location)
                let missing = wanted.filter { !known.contains($0) }
                if !missing.isEmpty { throw AuditLocations.unknown(missing, country: code, known: known) }
            }
            let id = UUID().uuidString.lowercased()
            try db.execute(
                sql: "INSERT INTO audits (id, country, total_assets, started_at, started_by, locations) VALUES (?, ?, 0, ?, ?, ?)",
                arguments: [id, code, Date(), actor.user, scope])
            try db.execute(
                sql: """
                    INSERT INTO audit_expected (audit_id, asset_id, asset_tag, \(AuditRows.recordedFields))
                    SELECT ?, id, asset_tag, \(AuditRows.recordedFields) FROM assets WHERE country = ? AND status NOT IN ('ARCHIVED','DISPOSED')
                        AND (?3 IS NULL OR location IN (SELECT value FROM json_each(?3))) ORDER BY id
                    """, arguments: [id, code, scope])
            try db.execute(sql: "UPDATE audits SET total_assets = ? WHERE id = ?", arguments: [db.changesCount, id])
            try AccessoryCounts.expect(db, auditID: id, country: code, scope: scope)
            try db.execute(
                sql: """
                    INSERT INTO audit_location_expected (audit_id, location, expected)
                    SELECT audit_id, location, count(*) FROM audit_expected WHERE audit_id = ? GROUP BY location
                    """, arguments: [id])
            let session = try AuditRows.fetchSession(db, id: id)
            try WebhookRows.queue(db, .auditStarted, subject: ReportSummary(session), at: session.startedAt)
            return session
        }
    }

    /// Ends the audit and marks it pending for `last_audited_at` (`LastAudited`), whose times
    /// are written after the commit, in batches, by `startLastAuditedCatchUp`.
    public func end(auditID: AuditID, by actor: Actor) async throws -> AuditSummary {
        let summary = try await database.write { db in
            let audit = try AuditRows.fetchSession(db, id: auditID)
            guard audit.isActive else { throw InventoryError.auditEnded(auditID) }
            let endedAt = Date()
            try db.execute(sql: "UPDATE audits SET ended_at = ?, ended_by = ? WHERE id = ?", arguments: [endedAt, actor.user, auditID])
            try LastAudited.audited(db, auditID: auditID)
            try PlanRows.audited(db, audit: audit, endedAt: endedAt)
            let summary = try Self.summary(db, auditID: auditID)
            try WebhookRows.queue(
                db, .auditEnded, subject: ReportSummary(summary.audit, byStation: summary.byStation ?? [], byUser: summary.byUser ?? []), at: endedAt)
            return summary
        }
        if lastAuditedCatchUp { startLastAuditedCatchUp() }
        return summary
    }

    /// Writes, in the background, the `last_audited_at` times of the ended audits still pending
    /// (`LastAudited.catchUp`), a batch a write transaction, so scans take turns with it. A
    /// process that ends before leaves the rest to the next one; reads merge it meanwhile.
    public func startLastAuditedCatchUp() {
        let database = database
        // A failed batch (the file busy beyond its timeout) is tried again, then left for the next catch-up.
        BackgroundCatchUp.start(
            isPending: { try await database.read { db in try LastAudited.isPending(db) } },
            batch: { try await database.write { db in try LastAudited.catchUp(db) } })
    }

    /// Whether an ended audit's `last_audited_at` times are not all written yet.
    public func lastAuditedPending() async throws -> Bool {
        try await database.read { db in try LastAudited.isPending(db) }
    }

    /// Writes up to `batches` batches (every one when nil) of `batch` assets (`LastAudited.batch`
    /// when nil) of the pending `last_audited_at` times now: `audit end` before it exits, and
    /// tests. Whether any remain.
    @discardableResult
    public func catchUpLastAudited(batch: Int? = nil, batches: Int? = nil) async throws -> Bool {
        let size = batch ?? LastAudited.batch
        var done = 0
        while batches.map({ done < $0 }) ?? true {
            guard try await database.write({ db in try LastAudited.catchUp(db, batch: size) }) else { return false }
            done += 1
        }
        return true
    }

    static func summary(_ db: Database, auditID: AuditID) throws -> AuditSummary {
        let audit = try AuditRows.fetchSession(db, id: auditID)
        let missing = try Row.fetchAll(
            db, sql: AuditRows.expectedSQL + " AND e.first_scan_id IS NULL ORDER BY e.asset_id LIMIT ?",
            arguments: [auditID, AuditSummary.listLimit]
        ).map(AuditRows.expectedEntry)
        let unexpected = try Row.fetchAll(
            db, sql: AuditRows.unexpectedSQL + " ORDER BY u.first_scan_id LIMIT ?",
            arguments: [auditID, AuditSummary.listLimit]
        ).map(AuditRows.unexpectedEntry)
        return AuditSummary(
            audit: audit, missing: missing, unexpected: unexpected,
            byStation: try tallies(db, auditID: auditID, by: .station), byUser: try tallies(db, auditID: auditID, by: .user))
    }

    /// The summary of an audit, running or ended.
    public func summary(auditID: AuditID) async throws -> AuditSummary {
        try await database.read { db in try Self.summary(db, auditID: auditID) }
    }

    public func history(country: String?, query: ListQuery) async throws -> Page<AuditSession> {
        try await history(country: country, within: nil, query: query)
    }

    /// Past and running audits, newest first, that pass `filter`, of every country in `allowed`
    /// (nil: every country). Everything is filtered in the query, before paging, so `total` and
    /// the pages count only what the caller may see.
    public func history(_ filter: AuditHistoryFilter, within allowed: Set<String>?, query: ListQuery) async throws -> Page<AuditSession> {
        let code = try checked { try filter.country.map { try Country.normalize($0) } }
        return try await database.read { db in
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if let code {
                conditions.append("country = ?")
                arguments += [code]
            }
            if let location = filter.location {
                // Case-insensitive in ASCII ("dock a" finds "Dock A"), as on PostgreSQL.
                conditions.append("(locations IS NULL OR EXISTS (SELECT 1 FROM json_each(audits.locations) WHERE value = ? COLLATE NOCASE))")
                arguments += [location]
            }
            if let from = filter.startedFrom {
                conditions.append("started_at >= ?")
                arguments += [from]
            }
            if let before = filter.startedBefore {
                conditions.append("started_at < ?")
                arguments += [before]
            }
            if let allowed {
                let list = allowed.sorted()
                conditions.append("country IN (" + (list.isEmpty ? "NULL" : list.map { _ in "?" }.joined(separator: ",")) + ")")
                arguments += StatementArguments(list)
            }
            let whereSQL = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            let total = try db.count(sql: "SELECT id FROM audits" + whereSQL, arguments: arguments)
            let items = try Row.fetchAll(
                db, sql: "SELECT * FROM audits" + whereSQL + " ORDER BY started_at DESC LIMIT ? OFFSET ?",
                arguments: arguments + [query.perPage, query.offset]
            ).map(AuditRows.session)
            return Page(items: items, pagination: Pagination(query: query, total: total))
        }
    }
}
