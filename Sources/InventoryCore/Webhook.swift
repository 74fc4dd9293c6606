import Foundation

/// What a webhook may be told of.
public enum WebhookEvent: String, Codable, Sendable, CaseIterable {
    case auditStarted = "audit.started"
    case auditEnded = "audit.ended"
    /// Sent once when a plan's due date passes (`AuditPlan`).
    case auditOverdue = "audit.overdue"

    /// A comma-separated list of event names, each known, at least one.
    public static func parse(_ text: String, field: String = "events") throws(ValidationError) -> [WebhookEvent] {
        try parse(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }, field: field)
    }

    public static func parse(_ names: [String], field: String = "events") throws(ValidationError) -> [WebhookEvent] {
        var events: [WebhookEvent] = []
        for name in names {
            guard let event = WebhookEvent(rawValue: name.lowercased()) else {
                throw ValidationError(
                    field: field, message: "'\(name.prefix(40))' is not an event; they are \(allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if !events.contains(event) { events.append(event) }
        }
        guard !events.isEmpty else {
            throw ValidationError(field: field, message: "must name at least one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return events
    }
}

/// A receiver of events. Its secret is never part of it: the store keeps it (in the 0600 SQLite
/// file, or a PostgreSQL row) and only the delivery loop reads it, to sign.
public struct Webhook: Codable, Sendable, Equatable {
    public var id: Int64
    public var url: String
    public var events: [WebhookEvent]
    public var createdAt: Date

    public init(id: Int64, url: String, events: [WebhookEvent], createdAt: Date) {
        self.id = id
        self.url = url
        self.events = events
        self.createdAt = createdAt
    }
}

/// What `webhooks add` and `POST /api/v1/webhooks` take.
public struct WebhookInput: Codable, Sendable {
    public var url: String
    public var events: [String]
    public var secret: String

    public init(url: String, events: [String], secret: String) {
        self.url = url
        self.events = events
        self.secret = secret
    }

    /// The URL (http or https, with a host), the events and the secret (16 to 512 bytes), or
    /// the field errors. The secret is never quoted in a message.
    public func checked() throws(ValidationError) -> (url: String, events: [WebhookEvent], secret: [UInt8]) {
        var errors = ValidationError()
        let text = url.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = URLComponents(string: text)
        if text.utf8.count > 2000 || !["http", "https"].contains(parts?.scheme?.lowercased() ?? "") || (parts?.host ?? "").isEmpty {
            errors.add("url", "'\(text.prefix(60))' is not an http:// or https:// URL with a host")
        }
        let chosen = errors.collect { () throws(ValidationError) in try WebhookEvent.parse(events) }
        let secret = Array(secret.trimmingCharacters(in: .newlines).utf8)
        if !(16...512).contains(secret.count) { errors.add("secret", "must be 16 to 512 bytes (it was \(secret.count))") }
        guard errors.isEmpty, let chosen else { throw errors }
        return (text, chosen, secret)
    }
}

/// One event for one webhook, in the outbox until it is taken or given up (`WebhookBackoff`).
/// Read from its row (`selectSQL`) by its fields' names in snake case, on both back ends.
public struct WebhookDelivery: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable {
        case pending, delivered, failed
    }

    public var id: Int64
    public var webhookId: Int64
    public var url: String
    public var event: WebhookEvent
    public var createdAt: Date
    public var state: State
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var deliveredAt: Date?
    /// The last attempt's HTTP status, or its error.
    public var lastStatus: Int?
    public var lastError: String?

    /// The select of deliveries, each with its webhook's URL and its state, which the row keeps
    /// as the times it was delivered or given up (portable SQL: SQLite and PostgreSQL run it alike).
    public static let selectSQL = """
        SELECT d.*, w.url, CASE WHEN d.delivered_at IS NOT NULL THEN 'delivered' WHEN d.failed_at IS NOT NULL THEN 'failed'
            ELSE 'pending' END AS state
        FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
        """
}

/// One try of a delivery, as logged.
public struct WebhookAttempt: Codable, Sendable, Equatable {
    public var deliveryId: Int64
    public var at: Date
    public var status: Int?
    public var error: String?

    public init(deliveryId: Int64, at: Date, status: Int?, error: String?) {
        self.deliveryId = deliveryId
        self.at = at
        self.status = status
        self.error = error
    }
}

/// A delivery taken from the outbox to send now: what to POST, where, and the secret to sign with.
public struct PendingDelivery: Sendable {
    public var id: Int64
    public var url: String
    public var event: WebhookEvent
    /// The JSON of the event's subject (`"audit": {…}`, or `"plan": {…}` for `audit.overdue`),
    /// fixed when the event happened.
    public var subject: String
    public var secret: [UInt8]
    public var attempts: Int
    public var createdAt: Date

    public init(id: Int64, url: String, event: WebhookEvent, subject: String, secret: [UInt8], attempts: Int, createdAt: Date) {
        self.id = id
        self.url = url
        self.event = event
        self.subject = subject
        self.secret = secret
        self.attempts = attempts
        self.createdAt = createdAt
    }

    /// The body to send at `sentAt`: `{"event", "sent_at", "audit" | "plan"}`.
    public func body(sentAt: Date) -> Data {
        let key = event == .auditOverdue ? "plan" : "audit"
        return Data(#"{"event":"\#(event.rawValue)","sent_at":"\#(ISOTime.string(sentAt))","\#(key)":\#(subject)}"#.utf8)
    }
}

/// When a failed delivery is tried again: 5 s after the first failure, doubling up to an hour
/// between tries, until 24 hours after the event; then it is given up (`failed`).
public enum WebhookBackoff {
    public static let first: TimeInterval = 5
    public static let longest: TimeInterval = 3_600
    public static let giveUpAfter: TimeInterval = 86_400
    /// How long a process holds a delivery it is sending before another may take it (a process
    /// killed mid-send leaves it for the next).
    public static let lease: TimeInterval = 60

    /// The next try after `attempts` failed tries of an event of `createdAt`, or nil to give up.
    public static func next(after attempts: Int, createdAt: Date, now: Date) -> Date? {
        let delay = min(longest, first * pow(2, Double(max(0, attempts - 1))))
        let next = now.addingTimeInterval(delay)
        return next.timeIntervalSince(createdAt) > giveUpAfter ? nil : next
    }
}

/// Webhooks, their outbox and its log. The stores queue `audit.started` and `audit.ended` in the
/// transaction that starts or ends the audit; the processes that serve the database deliver them
/// (`WebhookDeliverer`), never the request.
public protocol WebhookService: Sendable {
    func add(_ input: WebhookInput) async throws -> Webhook
    func list() async throws -> [Webhook]
    /// Removes a webhook with its deliveries, or `notFound`.
    func remove(id: Int64) async throws
    /// The newest deliveries first, at most `limit`; only those given up when `failedOnly`.
    func deliveries(failedOnly: Bool, limit: Int) async throws -> [WebhookDelivery]
    /// A delivery's attempts, in order.
    func attempts(deliveryID: Int64) async throws -> [WebhookAttempt]
    /// Queues `audit.overdue` for each plan whose due date has passed by `now` and was not
    /// queued for that date yet; how many plans were.
    func queueOverdue(at now: Date) async throws -> Int
    /// Takes up to `limit` deliveries whose time has come, leasing each until `now` plus
    /// `WebhookBackoff.lease`, so another process does not send them meanwhile.
    func claim(at now: Date, limit: Int) async throws -> [PendingDelivery]
    /// Logs an attempt: delivered, or failed with its next try (nil: given up).
    func attempted(_ attempt: WebhookAttempt, delivered: Bool, nextAttemptAt: Date?) async throws
}
