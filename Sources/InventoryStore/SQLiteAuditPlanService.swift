import Foundation
import GRDB
import InventoryCore

/// Audit plans over the SQLite file (a standalone station's, or the server's).
public struct SQLiteAuditPlanService: AuditPlanService {
    let database: AppDatabase
    /// The clock of new plans' creation.
    let now: @Sendable () -> Date

    public init(database: AppDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    public func add(_ input: AuditPlanInput) async throws -> AuditPlan {
        let plan = try checked { try input.checked() }
        let created = now()
        return try await database.write { db in
            if let location = plan.location {
                let known = try SQLiteAuditService.locations(db, country: plan.country).map(\.location)
                if !known.contains(location) { throw AuditLocations.unknown([location], country: plan.country, known: known, field: "location") }
            }
            let taken = try Int64.fetchOne(
                db, sql: "SELECT id FROM audit_plans WHERE country = ? AND location IS ?", arguments: [plan.country, plan.location])
            if let taken { throw plan.duplicate(of: taken) }
            let deadline = AuditPlan.deadline(from: created, everyDays: plan.everyDays)
            try db.execute(
                sql: "INSERT INTO audit_plans (country, location, every_days, assignee, created_at, next_due_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [plan.country, plan.location, plan.everyDays, plan.assignee, created, deadline])
            return try PlanRows.fetch(db, id: db.lastInsertedRowID)
        }
    }

    public func list() async throws -> [AuditPlan] {
        try await database.read { db in try Row.fetchAll(db, sql: "SELECT \(PlanRows.columns) FROM audit_plans ORDER BY id").map(PlanRows.plan) }
    }

    public func plan(id: Int64) async throws -> AuditPlan {
        try await database.read { db in try PlanRows.fetch(db, id: id) }
    }

    public func remove(id: Int64) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM audit_plans WHERE id = ?", arguments: [id])
            if db.changesCount == 0 { throw InventoryError.notFound("audit plan \(id)") }
        }
    }
}

/// Plan rows, and what the end of an audit does to them.
enum PlanRows {
    /// The columns `plan` reads, by position, the times as seconds since 1970: `audit due` reads
    /// every plan, and parsing each time's text costs more than the rest of the row.
    static let columns = """
        id, country, location, every_days, assignee, (julianday(created_at) - 2440587.5) * 86400.0, last_audit_id,
        (julianday(last_ended_at) - 2440587.5) * 86400.0
        """

    static func plan(_ row: Row) -> AuditPlan {
        let ended: Double? = row[7]
        return AuditPlan(
            id: row[0], country: row[1], location: row[2], everyDays: row[3], assignee: row[4],
            createdAt: Date(timeIntervalSince1970: row[5]), lastAuditId: row[6], lastEndedAt: ended.map { Date(timeIntervalSince1970: $0) })
    }

    static func fetch(_ db: Database, id: Int64) throws -> AuditPlan {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(PlanRows.columns) FROM audit_plans WHERE id = ?", arguments: [id]) else {
            throw InventoryError.notFound("audit plan \(id)")
        }
        return plan(row)
    }

    /// The end of `audit` at `endedAt`: the plan of exactly its scope (its country, or its one
    /// location) is audited now, and its next deadline is the end plus its interval. Called in
    /// the end's transaction.
    static func audited(_ db: Database, audit: AuditSession, endedAt: Date) throws {
        let locations = audit.locations ?? []
        guard locations.count <= 1 else { return }
        try db.execute(
            sql: """
                UPDATE audit_plans SET last_audit_id = ?1, last_ended_at = ?2,
                    next_due_at = strftime('%Y-%m-%d %H:%M:%f', ?2, '+' || every_days || ' days')
                WHERE country = ?3 AND location IS ?4 AND (last_ended_at IS NULL OR last_ended_at <= ?2)
                """, arguments: [audit.id, endedAt, audit.country, locations.first])
    }
}
