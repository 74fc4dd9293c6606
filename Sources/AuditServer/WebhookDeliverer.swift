import AsyncHTTPClient
import Crypto
import Foundation
import InventoryCore
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Sends the webhook outbox: each pass queues `audit.overdue` for plans newly past their date,
/// takes the deliveries whose time has come and POSTs each, signed, logging every attempt. Runs
/// beside the HTTP server in the processes that serve a database (`serve`, `office`, a
/// standalone kiosk), never inside a request. A pass takes its time from `now`, so tests move
/// the clock instead of waiting.
public struct WebhookDeliverer: Service {
    let webhooks: any WebhookService
    let logger: Logger
    let every: Duration
    let now: @Sendable () -> Date
    /// How long one POST may take.
    let timeout: TimeAmount

    public init(
        webhooks: any WebhookService, logger: Logger, every: Duration = .seconds(1), timeout: TimeAmount = .seconds(10),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.webhooks = webhooks
        self.logger = logger
        self.every = every
        self.timeout = timeout
        self.now = now
    }

    public func run() async throws {
        let client = Self.makeClient()
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { _ = try await pass(client: client) } catch {
                    if !Task.isCancelled { logger.warning("webhooks: the outbox could not be read", metadata: ["error": "\(error)"]) }
                }
                try? await Task.sleep(for: every)
            }
        }
        try? await client.shutdown()
    }

    /// A client that follows no redirect: a receiver answers for itself.
    static func makeClient() -> HTTPClient {
        HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
    }

    /// One pass at `now()`: what was delivered, and what failed (to be tried again or given up).
    public func pass(client: HTTPClient) async throws -> (delivered: Int, failed: Int) {
        try await send(try await due(), client: client)
    }

    /// One pass with a client of its own, made only when something is due and closed after:
    /// a standalone `audit end` with no webhook pays two reads and no client.
    public func pass() async throws -> (delivered: Int, failed: Int) {
        let deliveries = try await due()
        guard !deliveries.isEmpty else { return (0, 0) }
        let client = Self.makeClient()
        do {
            let result = try await send(deliveries, client: client)
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Plans newly overdue queued, then the deliveries whose time has come, taken.
    private func due() async throws -> [PendingDelivery] {
        let at = now()
        _ = try await webhooks.queueOverdue(at: at)
        return try await webhooks.claim(at: at, limit: 50)
    }

    private func send(_ deliveries: [PendingDelivery], client: HTTPClient) async throws -> (delivered: Int, failed: Int) {
        var delivered = 0
        var failed = 0
        for delivery in deliveries {
            if try await send(delivery, client: client) { delivered += 1 } else { failed += 1 }
        }
        return (delivered, failed)
    }

    /// POSTs one delivery and logs the attempt; true when the receiver answered 2xx.
    func send(_ delivery: PendingDelivery, client: HTTPClient) async throws -> Bool {
        let sentAt = now()
        let body = delivery.body(sentAt: sentAt)
        var request = HTTPClientRequest(url: delivery.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "AuditStation-Webhook")
        request.headers.add(name: "X-AuditStation-Event", value: delivery.event.rawValue)
        request.headers.add(name: "X-AuditStation-Delivery", value: String(delivery.id))
        request.headers.add(name: "X-AuditStation-Signature", value: Self.signature(body, secret: delivery.secret))
        request.body = .bytes(ByteBuffer(bytes: body))
        var status: Int?
        var problem: String?
        do {
            let response = try await client.execute(request, timeout: timeout)
            status = Int(response.status.code)
            _ = try? await response.body.collect(upTo: 64 * 1024)
            if !(200..<300).contains(status ?? 0) { problem = "the receiver answered \(response.status.code) \(response.status.reasonPhrase)" }
        } catch {
            problem = "\(error)".prefix(500).description
        }
        let ok = problem == nil
        let next = ok ? nil : WebhookBackoff.next(after: delivery.attempts + 1, createdAt: delivery.createdAt, now: now())
        try await webhooks.attempted(
            WebhookAttempt(deliveryId: delivery.id, at: sentAt, status: status, error: problem), delivered: ok, nextAttemptAt: next)
        if !ok {
            logger.info(
                "webhooks: a delivery failed",
                metadata: [
                    "delivery": "\(delivery.id)", "event": "\(delivery.event.rawValue)", "error": "\(problem ?? "")",
                    "next": "\(next.map(ISOTime.string) ?? "given up")"
                ])
        }
        return ok
    }

    /// `sha256=<hex HMAC-SHA256 of body with secret>`.
    public static func signature(_ body: Data, secret: [UInt8]) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: secret))
        return "sha256=" + code.map { String(format: "%02x", $0) }.joined()
    }
}
