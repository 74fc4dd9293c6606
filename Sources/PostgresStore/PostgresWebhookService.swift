import Foundation
import InventoryCore
import NIOCore
import PostgresNIO

/// Webhooks and their outbox over PostgreSQL, as on SQLite (`SQLiteWebhookService`). Several
/// servers may deliver from one outbox: each takes deliveries with `FOR UPDATE SKIP LOCKED` and
/// a lease, so one sends each at a time.
public struct PostgresWebhookService: WebhookService {
    let database: PostgresDatabase

    public init(database: PostgresDatabase) { self.database = database }

    public func add(_ input: WebhookInput) async throws -> Webhook {
        let hook = try checked { try input.checked() }
        let events = hook.events.map(\.rawValue).joined(separator: ",")
        return try await database.transaction { c in
            guard
                let row = try await c.row(
                    """
                    INSERT INTO webhooks (url, events, secret, created_at) VALUES (\(hook.url), \(events), \(ByteBuffer(bytes: hook.secret)), \(Date()))
                    RETURNING id, url, events, created_at
                    """)
            else { throw InventoryError.storage("the webhook was not stored") }
            return try PGWebhookRows.hook(row)
        }
    }

    public func list() async throws -> [Webhook] {
        try await database.read { c in try await c.rows("SELECT id, url, events, created_at FROM webhooks ORDER BY id").map(PGWebhookRows.hook) }
    }

    public func remove(id: Int64) async throws {
        try await database.transaction { c in
            guard try await c.row("DELETE FROM webhooks WHERE id = \(id) RETURNING id") != nil else { throw InventoryError.notFound("webhook \(id)") }
        }
    }

    public func deliveries(failedOnly: Bool, limit: Int) async throws -> [WebhookDelivery] {
        try await database.read { c in
            try await c.rows(
                """
                \(unescaped: WebhookDelivery.selectSQL)
                WHERE (NOT \(failedOnly) OR d.failed_at IS NOT NULL) ORDER BY d.id DESC LIMIT \(limit)
                """
            ).map { try PGRowDecoder.decode(WebhookDelivery.self, from: $0) }
        }
    }

    public func attempts(deliveryID: Int64) async throws -> [WebhookAttempt] {
        try await database.read { c in
            try await c.rows("SELECT * FROM webhook_attempts WHERE delivery_id = \(deliveryID) ORDER BY id").map {
                WebhookAttempt(deliveryId: try $0.get("delivery_id"), at: try $0.get("at"), status: try $0.get("status"), error: try $0.get("error"))
            }
        }
    }

    public func queueOverdue(at now: Date) async throws -> Int {
        try await database.transaction { c in
            let plans = try await c.rows(
                """
                SELECT * FROM audit_plans WHERE next_due_at <= \(now) AND (overdue_sent_for IS NULL OR overdue_sent_for <> next_due_at)
                ORDER BY id FOR UPDATE SKIP LOCKED
                """
            ).map(PGPlanRows.plan)
            for plan in plans {
                try await PGWebhookRows.queue(c, .auditOverdue, subject: DuePlan(plan, at: now, windowDays: 0), at: now)
                try await c.run("UPDATE audit_plans SET overdue_sent_for = next_due_at WHERE id = \(plan.id)")
            }
            return plans.count
        }
    }

    public func claim(at now: Date, limit: Int) async throws -> [PendingDelivery] {
        let leased = now.addingTimeInterval(WebhookBackoff.lease)
        return try await database.transaction { c in
            try await c.rows(
                """
                WITH due AS (
                    SELECT id FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= \(now)
                    ORDER BY next_attempt_at LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                UPDATE webhook_deliveries d SET next_attempt_at = \(leased) FROM due, webhooks w
                WHERE d.id = due.id AND w.id = d.webhook_id
                RETURNING d.id, d.event, d.subject, d.attempts, d.created_at, w.url, w.secret
                """
            ).compactMap { row in
                guard let event = WebhookEvent(rawValue: try row.get("event")) else { return nil }
                let secret: ByteBuffer = try row.get("secret")
                return PendingDelivery(
                    id: try row.get("id"), url: try row.get("url"), event: event, subject: try row.get("subject"),
                    secret: Array(secret.readableBytesView),
                    attempts: try row.get("attempts"), createdAt: try row.get("created_at"))
            }
        }
    }

    public func attempted(_ attempt: WebhookAttempt, delivered: Bool, nextAttemptAt: Date?) async throws {
        let deliveredAt: Date? = delivered ? attempt.at : nil
        let failedAt: Date? = !delivered && nextAttemptAt == nil ? attempt.at : nil
        let next: Date? = delivered ? nil : nextAttemptAt
        try await database.transaction { c in
            try await c.run(
                "INSERT INTO webhook_attempts (delivery_id, at, status, error) VALUES (\(attempt.deliveryId), \(attempt.at), \(attempt.status), \(attempt.error))"
            )
            try await c.run(
                """
                UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = \(attempt.status), last_error = \(attempt.error),
                    delivered_at = \(deliveredAt), failed_at = \(failedAt), next_attempt_at = \(next) WHERE id = \(attempt.deliveryId)
                """)
        }
    }
}

/// Webhook rows, and the queueing of events in the transaction of the change, as on SQLite.
enum PGWebhookRows {
    static func hook(_ row: PostgresRandomAccessRow) throws -> Webhook {
        let names: String = try row.get("events")
        return Webhook(
            id: try row.get("id"), url: try row.get("url"), events: names.split(separator: ",").compactMap { WebhookEvent(rawValue: String($0)) },
            createdAt: try row.get("created_at"))
    }

    /// Queues `event` about `subject` for every webhook that wants it, due at once.
    static func queue(_ c: PostgresConnection, _ event: WebhookEvent, subject: some Encodable, at now: Date) async throws {
        guard try await c.row("SELECT 1 FROM webhooks LIMIT 1") != nil else { return }
        let json = String(decoding: try JSONEncoder.auditStation().encode(subject), as: UTF8.self)
        try await c.run(
            """
            INSERT INTO webhook_deliveries (webhook_id, event, subject, created_at, next_attempt_at)
            SELECT id, \(event.rawValue), \(json), \(now), \(now) FROM webhooks WHERE \(event.rawValue) = ANY(string_to_array(events, ','))
            """)
    }
}
