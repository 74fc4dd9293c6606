import AuditTestSupport
import Foundation
import Testing
import TestKit

/// `webhooks add|list|remove|deliveries` on a station's file, and the outbox surviving a killed
/// server: a standalone `audit end` tries once, a `serve` retries, is killed, and the next
/// `serve` delivers to the receiver, which checks every signature.
@Suite struct WebhookCommandTests {
    static let secret = "cli-secret-0123456789"

    @Test func badWebhooksAreRefusedAndTheSecretIsNeverPrinted() async throws {
        let base = ["--database", try StationProcess.scratch().database]
        for (arguments, message) in [
            (["ftp://127.0.0.1/x", "--events", "audit.ended"], "is not an http:// or https:// URL"),
            (["http://127.0.0.1/x", "--events", "audit.lost"], "'audit.lost' is not an event"),
            (["http://127.0.0.1/x", "--events", ","], "must name at least one of")
        ] {
            let refused = try await StationProcess.run(
                base + ["webhooks", "add"] + arguments + ["--secret-stdin"], input: Data((Self.secret + "\n").utf8))
            #expect(refused.status != 0 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
        let short = try await StationProcess.run(
            base + ["webhooks", "add", "http://127.0.0.1/x", "--events", "audit.ended", "--secret-stdin"], input: Data("short\n".utf8))
        #expect(short.status != 0 && short.stderr.contains("secret must be 16 to 512 bytes") && !short.stderr.contains("short\n"))
        let added = try await StationProcess.run(
            base + ["webhooks", "add", "http://127.0.0.1:9/x", "--events", "audit.ended,audit.overdue", "--secret-stdin", "--json"],
            input: Data((Self.secret + "\n").utf8))
        #expect(added.status == 0 && !added.stdout.contains(Self.secret))
        let id = try #require(try jsonObject(added.stdout)["id"] as? Int)
        let listed = try await StationProcess.run(base + ["webhooks", "list"])
        #expect(listed.stdout.contains("audit.ended,audit.overdue") && !listed.stdout.contains(Self.secret))
        #expect(try await StationProcess.run(base + ["webhooks", "remove", String(id)]).status == 0)
        let again = try await StationProcess.run(base + ["webhooks", "remove", String(id)])
        #expect(again.status != 0 && again.stderr.contains("webhook \(id)"))
    }

    @Test func aKilledServerResumesItsDeliveries() async throws {
        let receiver = try await WebhookReceiver.start(secret: Self.secret, failFirst: 2)
        defer { Task { await receiver.stop() } }
        let (folder, database) = try StationProcess.scratch()
        let base = ["--database", database]
        let csv = folder.appendingPathComponent("inventory.csv")
        try CSVFixture("asset_tag", "name", "country").row("A-1", "Laptop", "SG").write(to: csv)
        #expect(try await StationProcess.run(base + ["assets", "import", csv.path]).status == 0)
        let added = try await StationProcess.run(
            base + ["webhooks", "add", receiver.url, "--events", "audit.ended", "--secret-stdin"], input: Data((Self.secret + "\n").utf8))
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try await StationProcess.run(base + ["audit", "start", "--country", "SG"]).status == 0)
        // The standalone end stores the event and tries once: the receiver's first failure.
        #expect(try await StationProcess.run(base + ["audit", "end"]).status == 0)
        #expect(receiver.requests.count == 1)
        let pending = try jsonObject(try await StationProcess.run(base + ["webhooks", "deliveries", "--json"]).stdout)
        #expect(pending["state"] as? String == "pending" && pending["attempts"] as? Int == 1 && pending["last_status"] as? Int == 500)

        // A server retries after its backoff (the second failure) and is killed.
        var server = try await ServeProcess.start(database: database, port: try Loopback.freePort())
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while receiver.requests.count < 2, clock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        // Killed once it has logged that failure: killed before, the delivery would stay leased to
        // it for a minute (`WebhookBackoff.lease`) before another server may take it.
        var retried: [String: Any] = [:]
        while retried["attempts"] as? Int != 2, clock.now < deadline + .seconds(20) {
            retried = try jsonObject(try await StationProcess.run(base + ["webhooks", "deliveries", "--json"]).stdout)
            if retried["attempts"] as? Int != 2 { try await Task.sleep(for: .milliseconds(100)) }
        }
        await server.kill9()
        #expect(receiver.requests.count == 2 && receiver.taken.isEmpty)

        // The next server takes the outbox up where it was left.
        server = try await ServeProcess.start(database: database, port: try Loopback.freePort())
        let taken = try await receiver.waitForTaken(1, timeout: .seconds(40))
        // The server logs the answer after the receiver gave it: wait for that before the kill
        // (killed in between, the next server would send it again, with the same delivery id).
        var delivered: [String: Any] = [:]
        let logged = clock.now + .seconds(20)
        while delivered["state"] as? String != "delivered", clock.now < logged {
            delivered = try jsonObject(try await StationProcess.run(base + ["webhooks", "deliveries", "--json"]).stdout)
            if delivered["state"] as? String != "delivered" { try await Task.sleep(for: .milliseconds(100)) }
        }
        await server.kill9()
        #expect(taken.count == 1 && receiver.requests.allSatisfy(\.signatureValid))
        #expect(receiver.requests.map(\.answered) == [500, 500, 204])
        #expect(delivered["state"] as? String == "delivered" && delivered["attempts"] as? Int == 3)
        #expect(try await StationProcess.run(base + ["webhooks", "deliveries", "--failed", "--json"]).stdout.isEmpty)
    }
}
