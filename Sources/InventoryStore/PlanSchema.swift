import GRDB

/// Migrations for cycle counts: audit plans, and webhooks with their outbox. Registered by name
/// in `Schema.migrator`; like every migration, they never change once shipped.
enum PlanSchema {
    /// Audit plans: one per scope (a country, or one location of it). `next_due_at` is kept on
    /// the row (moved by the end of an audit of the plan's exact scope) so `audit due` reads an
    /// index; `overdue_sent_for` is the deadline whose `audit.overdue` was queued, so it is
    /// queued once.
    static func auditPlans(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE audit_plans (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    country TEXT NOT NULL CHECK (length(country) = 2 AND country = upper(country)),
                    location TEXT CHECK (location IS NULL OR location <> ''),
                    every_days INTEGER NOT NULL CHECK (every_days BETWEEN 1 AND 3650),
                    assignee TEXT,
                    created_at DATETIME NOT NULL,
                    last_audit_id TEXT,
                    last_ended_at DATETIME,
                    next_due_at DATETIME NOT NULL,
                    overdue_sent_for DATETIME);
                CREATE UNIQUE INDEX audit_plans_scope ON audit_plans(country, ifnull(location, ''));
                CREATE INDEX audit_plans_next_due ON audit_plans(next_due_at);
                """)
    }

    /// Webhooks and their outbox: each event is queued for each webhook that wants it in the
    /// transaction of the change, and each attempt to send it is logged. The secret stays in this
    /// file, which is created readable by its owner only (0600), as the signing key's file is.
    static func webhooks(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE webhooks (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    url TEXT NOT NULL CHECK (url <> ''),
                    events TEXT NOT NULL CHECK (events <> ''),
                    secret BLOB NOT NULL,
                    created_at DATETIME NOT NULL);
                CREATE TABLE webhook_deliveries (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    webhook_id INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
                    event TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    created_at DATETIME NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at DATETIME,
                    delivered_at DATETIME,
                    failed_at DATETIME,
                    last_status INTEGER,
                    last_error TEXT);
                CREATE INDEX webhook_deliveries_next ON webhook_deliveries(next_attempt_at) WHERE next_attempt_at IS NOT NULL;
                CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id);
                CREATE TABLE webhook_attempts (
                    id INTEGER PRIMARY KEY,
                    delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
                    at DATETIME NOT NULL,
                    status INTEGER,
                    error TEXT);
                CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, id);
                CREATE INDEX audit_plans_overdue ON audit_plans(next_due_at) WHERE overdue_sent_for IS NULL OR overdue_sent_for <> next_due_at;
                """)
    }
}
