import Foundation
import InventoryCore
import PostgresNIO

/// Audit plans over PostgreSQL, as on SQLite (`SQLiteAuditPlanService`).
public struct PostgresAuditPlanService: AuditPlanService {
    let database: PostgresDatabase
    /// The clock of new plans' creation.
    let now: @Sendable () -> Date

    public init(database: PostgresDatabase, now: @escaping @Sendable () -> Date = { Date() }) {
        self.database = database
        self.now = now
    }

    public func add(_ input: AuditPlanInput) async throws -> AuditPlan {
        let plan = try checked { try input.checked() }
        let created = now()
        return try await database.transaction { c in
            if let location = plan.location {
                let known = try await PostgresAuditService.locations(c, country: plan.country).map(\.location)
                if !known.contains(location) { throw AuditLocations.unknown([location], country: plan.country, known: known, field: "location") }
            }
            let place = plan.location ?? ""
            if let taken = try await c.row("SELECT id FROM audit_plans WHERE country = \(plan.country) AND coalesce(location, '') = \(place)") {
                throw plan.duplicate(of: try taken.get("id"))
            }
            let deadline = AuditPlan.deadline(from: created, everyDays: plan.everyDays)
            guard
                let row = try await c.row(
                    """
                    INSERT INTO audit_plans (country, location, every_days, assignee, created_at, next_due_at)
                    VALUES (\(plan.country), \(plan.location), \(plan.everyDays), \(plan.assignee), \(created), \(deadline)) RETURNING *
                    """)
            else { throw InventoryError.storage("the new plan was not stored") }
            return try PGPlanRows.plan(row)
        }
    }

    public func list() async throws -> [AuditPlan] {
        try await database.read { c in try await c.rows("SELECT * FROM audit_plans ORDER BY id").map(PGPlanRows.plan) }
    }

    public func plan(id: Int64) async throws -> AuditPlan {
        try await database.read { c in
            guard let row = try await c.row("SELECT * FROM audit_plans WHERE id = \(id)") else { throw InventoryError.notFound("audit plan \(id)") }
            return try PGPlanRows.plan(row)
        }
    }

    public func remove(id: Int64) async throws {
        try await database.transaction { c in
            guard try await c.row("DELETE FROM audit_plans WHERE id = \(id) RETURNING id") != nil else {
                throw InventoryError.notFound("audit plan \(id)")
            }
        }
    }
}

/// Plan rows, and what the end of an audit does to them, as on SQLite (`PlanRows`).
enum PGPlanRows {
    static func plan(_ row: PostgresRandomAccessRow) throws -> AuditPlan {
        AuditPlan(
            id: try row.get("id"), country: try row.get("country"), location: try row.get("location"), everyDays: try row.get("every_days"),
            assignee: try row.get("assignee"), createdAt: try row.get("created_at"), lastAuditId: try row.get("last_audit_id"),
            lastEndedAt: try row.get("last_ended_at"))
    }

    /// The end of an audit of `country` narrowed to `locations` at `endedAt`: the plan of
    /// exactly its scope is audited now. Called in the end's transaction.
    static func audited(_ c: PostgresConnection, auditID: AuditID, country: String, locations: [String]?, endedAt: Date) async throws {
        let scope = locations ?? []
        guard scope.count <= 1 else { return }
        let place = scope.first ?? ""
        try await c.run(
            """
            UPDATE audit_plans SET last_audit_id = \(auditID), last_ended_at = \(endedAt),
                next_due_at = \(endedAt) + every_days * interval '1 day'
            WHERE country = \(country) AND coalesce(location, '') = \(place) AND (last_ended_at IS NULL OR last_ended_at <= \(endedAt))
            """)
    }
}
