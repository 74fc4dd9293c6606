import Foundation
import GRDB
import InventoryCore

/// Webhooks and their outbox over the SQLite file.
public struct SQLiteWebhookService: WebhookService {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    public func add(_ input: WebhookInput) async throws -> Webhook {
        let hook = try checked { try input.checked() }
        return try await database.write { db in
            try db.execute(
                sql: "INSERT INTO webhooks (url, events, secret, created_at) VALUES (?, ?, ?, ?)",
                arguments: [hook.url, hook.events.map(\.rawValue).joined(separator: ","), Data(hook.secret), Date()])
            return try WebhookRows.fetch(db, id: db.lastInsertedRowID)
        }
    }

    public func list() async throws -> [Webhook] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, url, events, created_at FROM webhooks ORDER BY id").map(WebhookRows.hook)
        }
    }

    public func remove(id: Int64) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM webhooks WHERE id = ?", arguments: [id])
            if db.changesCount == 0 { throw InventoryError.notFound("webhook \(id)") }
        }
    }

    public func deliveries(failedOnly: Bool, limit: Int) async throws -> [WebhookDelivery] {
        try await database.read { db in
            try WebhookDelivery.fetchAll(
                db,
                sql: """
                    \(WebhookDelivery.selectSQL)
                    \(failedOnly ? "WHERE d.failed_at IS NOT NULL" : "") ORDER BY d.id DESC LIMIT ?
                    """, arguments: [limit])
        }
    }

    public func attempts(deliveryID: Int64) async throws -> [WebhookAttempt] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY id", arguments: [deliveryID]).map {
                WebhookAttempt(deliveryId: $0["delivery_id"], at: $0["at"], status: $0["status"], error: $0["error"])
            }
        }
    }

    public func queueOverdue(at now: Date) async throws -> Int {
        try await database.write { db in
            let plans = try Row.fetchAll(
                db,
                sql:
                    "SELECT \(PlanRows.columns) FROM audit_plans WHERE next_due_at <= ? AND (overdue_sent_for IS NULL OR overdue_sent_for <> next_due_at) ORDER BY id",
                arguments: [now]
            ).map(PlanRows.plan)
            for plan in plans {
                try WebhookRows.queue(db, .auditOverdue, subject: DuePlan(plan, at: now, windowDays: 0), at: now)
                try db.execute(sql: "UPDATE audit_plans SET overdue_sent_for = next_due_at WHERE id = ?", arguments: [plan.id])
            }
            return plans.count
        }
    }

    public func claim(at now: Date, limit: Int) async throws -> [PendingDelivery] {
        try await database.write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT d.id, d.event, d.subject, d.attempts, d.created_at, w.url, w.secret
                    FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
                    WHERE d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= ? ORDER BY d.next_attempt_at LIMIT ?
                    """, arguments: [now, limit])
            var taken: [PendingDelivery] = []
            for row in rows {
                guard let event = WebhookEvent(rawValue: row["event"]) else { continue }
                try db.execute(
                    sql: "UPDATE webhook_deliveries SET next_attempt_at = ? WHERE id = ?",
                    arguments: [now.addingTimeInterval(WebhookBackoff.lease), row["id"] as Int64])
                let secret: Data = row["secret"]
                taken.append(
                    PendingDelivery(
                        id: row["id"], url: row["url"], event: event, subject: row["subject"], secret: Array(secret), attempts: row["attempts"],
                        createdAt: row["created_at"]))
            }
            return taken
        }
    }

    public func attempted(_ attempt: WebhookAttempt, delivered: Bool, nextAttemptAt: Date?) async throws {
        try await database.write { db in
            try db.execute(
                sql: "INSERT INTO webhook_attempts (delivery_id, at, status, error) VALUES (?, ?, ?, ?)",
                arguments: [attempt.deliveryId, attempt.at, attempt.status, attempt.error])
            try db.execute(
                sql: """
                    UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = ?, last_error = ?,
                        delivered_at = ?, failed_at = ?, next_attempt_at = ? WHERE id = ?
                    """,
                arguments: [
                    attempt.status, attempt.error, delivered ? attempt.at : nil, !delivered && nextAttemptAt == nil ? attempt.at : nil,
                    delivered ? nil : nextAttemptAt, attempt.deliveryId
                ])
        }
    }
}

/// Webhook rows, and the queueing of events in the transaction of the change.
enum WebhookRows {
    static func hook(_ row: Row) -> Webhook {
        let names: String = row["events"]
        return Webhook(
            id: row["id"], url: row["url"], events: names.split(separator: ",").compactMap { WebhookEvent(rawValue: String($0)) },
            createdAt: row["created_at"])
    }

    static func fetch(_ db: Database, id: Int64) throws -> Webhook {
        guard let row = try Row.fetchOne(db, sql: "SELECT id, url, events, created_at FROM webhooks WHERE id = ?", arguments: [id]) else {
            throw InventoryError.notFound("webhook \(id)")
        }
        return hook(row)
    }

    /// Queues `event` about `subject` for every webhook that wants it, due at once.
    static func queue(_ db: Database, _ event: WebhookEvent, subject: some Encodable, at now: Date) throws {
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM webhooks)") == true else { return }
        let json = String(decoding: try JSONEncoder.auditStation().encode(subject), as: UTF8.self)
        try db.execute(
            sql: """
                INSERT INTO webhook_deliveries (webhook_id, event, subject, created_at, next_attempt_at)
                SELECT id, ?1, ?2, ?3, ?3 FROM webhooks WHERE ',' || events || ',' LIKE '%,' || ?1 || ',%'
                """, arguments: [event.rawValue, json, now])
    }
}

/// Read by its fields' names in snake case, as `Records` are.
extension WebhookDelivery: FetchableRecord {
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
}
