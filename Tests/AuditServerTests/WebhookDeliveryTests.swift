import AuditServer
import AuditTestSupport
import Foundation
import InventoryCore
import Logging
import TestKit
import Testing

/// Webhooks (SPEC "Cycle counts"): events queued in the transaction of the change and sent
/// from the outbox by a deliverer whose clock the test moves, to a loopback receiver that checks
/// each signature; retries with backoff, each attempt logged, given up after 24 hours;
/// `audit.overdue` once per due date. On both back ends.
@Suite("Webhook deliveries")
struct WebhookDeliveryTests {
    static let secret = "a-secret-of-some-length"
    static let actor = Actor(user: "alice", station: "kiosk-1")

    static func deliverer(_ backend: ServerBackend, clock: Locked<Date>) -> WebhookDeliverer {
        var logger = Logger(label: "webhook-test")
        logger.logLevel = .critical
        return WebhookDeliverer(webhooks: backend.webhooks, logger: logger, timeout: .seconds(5), now: { clock.get() })
    }

    @Test("A receiver that fails twice gets the signed event on the third try, and each try is logged", arguments: Backend.allCases)
    func failsTwiceThenTaken(_ backend: Backend) async throws {
        let receiver = try await WebhookReceiver.start(secret: Self.secret, failFirst: 2)
        let (server, close) = try await backend.make()
        defer {
            Task {
                await close()
                await receiver.stop()
            }
        }
        _ = try await server.assets.create(AssetInput(assetTag: "SG-1", name: "Laptop", country: "SG"))
        let hook = try await server.webhooks.add(WebhookInput(url: receiver.url, events: ["audit.ended"], secret: Self.secret))
        #expect(hook.events == [.auditEnded])
        let audit = try await server.audits.start(country: "SG", by: Self.actor)
        _ = try await server.audits.end(auditID: audit.id, by: Self.actor)
        #expect(receiver.requests.isEmpty, "nothing is sent by the request that ended the audit")

        let clock = Locked(Date())
        let deliverer = Self.deliverer(server, clock: clock)
        #expect(try await deliverer.pass() == (0, 1))
        #expect(try await deliverer.pass() == (0, 0), "the next try waits for its backoff")
        clock.update { $0 += WebhookBackoff.first }
        #expect(try await deliverer.pass() == (0, 1))
        clock.update { $0 += WebhookBackoff.first * 2 }
        #expect(try await deliverer.pass() == (1, 0))
        #expect(try await deliverer.pass() == (0, 0), "a delivered event is not sent again")

        let requests = receiver.requests
        #expect(requests.map(\.answered) == [500, 500, 204])
        #expect(requests.allSatisfy { $0.signatureValid && $0.event == "audit.ended" && $0.signature?.hasPrefix("sha256=") == true })
        let body = try #require(requests.last?.json)
        #expect(body["event"] as? String == "audit.ended" && body["sent_at"] is String)
        let summary = try #require(body["audit"] as? [String: Any])
        #expect(summary["audit_id"] as? String == audit.id && summary["country"] as? String == "SG" && summary["total_assets"] as? Int == 1)
        #expect(summary["ended_by"] as? String == "alice")

        let delivery = try #require(try await server.webhooks.deliveries(failedOnly: false, limit: 10).first)
        #expect(delivery.state == .delivered && delivery.attempts == 3 && delivery.lastStatus == 204 && delivery.nextAttemptAt == nil)
        let attempts = try await server.webhooks.attempts(deliveryID: delivery.id)
        #expect(attempts.map(\.status) == [500, 500, 204])
        #expect(attempts[0].error?.contains("500") == true && attempts[2].error == nil)
        #expect(String(delivery.id) == requests.last?.delivery)
    }

    @Test("A receiver that never takes an event is given up after 24 hours of growing backoff", arguments: Backend.allCases)
    func givenUpAfterADay(_ backend: Backend) async throws {
        let receiver = try await WebhookReceiver.start(secret: Self.secret, failFirst: .max)
        let (server, close) = try await backend.make()
        defer {
            Task {
                await close()
                await receiver.stop()
            }
        }
        _ = try await server.webhooks.add(WebhookInput(url: receiver.url, events: ["audit.started"], secret: Self.secret))
        let started = Date()
        _ = try await server.audits.start(country: "SG", by: Self.actor)
        let clock = Locked(Date())
        let deliverer = Self.deliverer(server, clock: clock)
        var gaps: [TimeInterval] = []
        for _ in 0..<100 {
            _ = try await deliverer.pass()
            guard let pending = try await server.webhooks.deliveries(failedOnly: false, limit: 1).first, let next = pending.nextAttemptAt else {
                break
            }
            gaps.append(next.timeIntervalSince(clock.get()))
            clock.set(next)
        }
        let delivery = try #require(try await server.webhooks.deliveries(failedOnly: true, limit: 10).first)
        #expect(delivery.state == .failed && delivery.attempts == receiver.requests.count)
        #expect(Array(gaps.prefix(4)).map { Int($0.rounded()) } == [5, 10, 20, 40])
        #expect(gaps.max().map { $0 <= WebhookBackoff.longest + 1 } == true)
        #expect(clock.get().timeIntervalSince(started) <= WebhookBackoff.giveUpAfter + 1)
        #expect(clock.get().timeIntervalSince(started) > WebhookBackoff.giveUpAfter - WebhookBackoff.longest - 1)
    }

    @Test("audit.overdue is sent once when a plan's due date passes, and again for its next date", arguments: Backend.allCases)
    func overdueOnce(_ backend: Backend) async throws {
        let receiver = try await WebhookReceiver.start(secret: Self.secret)
        let (server, close) = try await backend.make()
        defer {
            Task {
                await close()
                await receiver.stop()
            }
        }
        _ = try await server.assets.create(AssetInput(assetTag: "SG-1", name: "Laptop", country: "SG"))
        _ = try await server.webhooks.add(WebhookInput(url: receiver.url, events: ["audit.overdue"], secret: Self.secret))
        let plan = try await server.plans.add(AuditPlanInput(country: "SG", everyDays: 1))
        let clock = Locked(Date())
        let deliverer = Self.deliverer(server, clock: clock)
        #expect(try await deliverer.pass() == (0, 0))
        clock.set(plan.nextDueAt.addingTimeInterval(1))
        #expect(try await deliverer.pass() == (1, 0))
        clock.update { $0 += 86_400 }
        #expect(try await deliverer.pass() == (0, 0), "overdue is told once a due date")
        let body = try #require(receiver.taken.first?.json)
        #expect(body["event"] as? String == "audit.overdue")
        let told = try #require(body["plan"] as? [String: Any])
        #expect(told["plan_id"] as? Int == Int(plan.id) && told["state"] as? String == "overdue")

        let audit = try await server.audits.start(country: "SG", by: Self.actor)
        _ = try await server.audits.end(auditID: audit.id, by: Self.actor)
        let moved = try await server.plans.plan(id: plan.id)
        clock.set(moved.nextDueAt.addingTimeInterval(1))
        #expect(try await deliverer.pass() == (1, 0))
        #expect(receiver.taken.count == 2 && receiver.taken.allSatisfy(\.signatureValid))
    }

    @Test("Bad webhooks are refused with the field named, and the secret is never part of one", arguments: Backend.allCases)
    func badWebhooks(_ backend: Backend) async throws {
        let (server, close) = try await backend.make()
        defer { Task { await close() } }
        func refused(_ input: WebhookInput) async -> [String] {
            do {
                _ = try await server.webhooks.add(input)
                return []
            } catch InventoryError.invalid(let errors) { return errors.fields.keys.sorted() } catch { return ["\(error)"] }
        }
        #expect(await refused(WebhookInput(url: "ftp://127.0.0.1/x", events: ["audit.ended"], secret: Self.secret)) == ["url"])
        #expect(await refused(WebhookInput(url: "http:///nohost", events: ["audit.ended"], secret: Self.secret)) == ["url"])
        #expect(await refused(WebhookInput(url: "http://127.0.0.1/x", events: ["audit.lost"], secret: Self.secret)) == ["events"])
        #expect(await refused(WebhookInput(url: "http://127.0.0.1/x", events: [], secret: Self.secret)) == ["events"])
        #expect(await refused(WebhookInput(url: "http://127.0.0.1/x", events: ["audit.ended"], secret: "short")) == ["secret"])
        #expect(try await server.webhooks.list().isEmpty)
        let hook = try await server.webhooks.add(
            WebhookInput(url: "http://127.0.0.1/x", events: ["audit.ended", "AUDIT.STARTED"], secret: Self.secret))
        let listed = String(decoding: try JSONEncoder.auditStation().encode(try await server.webhooks.list()), as: UTF8.self)
        #expect(!listed.contains(Self.secret) && listed.contains("audit.started"))
        try await server.webhooks.remove(id: hook.id)
        await #expect(throws: InventoryError.self) { try await server.webhooks.remove(id: hook.id) }
    }
}
