import AuditClient
import AuditTestSupport
import ConnectedStore
import Foundation
import InventoryCore
import TestKit
import Testing

/// Two processes of one station (a kiosk and an `audit sync` typed beside it) share its outbox:
/// one sends at a time, so a server that knows no `scan_id` (the seeds' API) stores each scan once.
@Suite("One station's outbox sent by two processes at once")
struct SharedOutboxTests {
    @Test("Two senders on one station file, against a server without scan ids: every scan is stored once")
    func twoSendersStoreEachScanOnce() async throws {
        try await SpecServer.with { server in
            for index in 1...30 { await server.audits.add(tag: "A\(index)", country: "SG") }
            await server.audits.ignoreScanIDs()
            let first = try await TestStation.make(server: server.baseURL, email: "jane@example.com", name: "kiosk-1")
            _ = try await first.audit.start(country: "SG", by: Actor(user: "jane", station: "kiosk-1"))
            for index in 1...30 { #expect(try await first.scan("A\(index)").status == .foundExpected) }
            // The same file opened again, as a second process would: its own database
            // connections and its own descriptor of the lock file.
            let second = try await TestStation.make(server: server.baseURL, email: "jane@example.com", name: "kiosk-1", path: first.path)
            async let one = first.audit.syncNow()
            async let two = second.audit.syncNow()
            let reports = await [one, two]
            #expect(reports.map(\.pushed).reduce(0, +) == 30, "\(reports)")
            #expect(reports.allSatisfy { $0.remaining == 0 && $0.stoppedBy == nil }, "\(reports)")
            let stored = await server.audits.stored
            #expect(stored.count == 30)
        }
    }

    @Test("A sender whose lock another process holds without sending says so, keeps its scans, and sends them once that process ends")
    func stuckHolderIsReported() async throws {
        try await SpecServer.with { server in
            await server.audits.add(tag: "A1", country: "SG")
            var policy = TestStation.fastPolicy
            policy.sendPatience = .milliseconds(1500)
            let station = try await TestStation.make(server: server.baseURL, email: "jane@example.com", name: "kiosk-1", policy: policy)
            _ = try await station.audit.start(country: "SG", by: Actor(user: "jane", station: "kiosk-1"))
            #expect(try await station.scan("A1").status == .foundExpected)
            let path = try #require(SendLock(databasePath: station.path).path)
            let holder = try await Child.start(
                "/usr/bin/flock", ["-o", path, "-c", "echo held; exec sleep 20"], log: URL(fileURLWithPath: station.path + ".holder.log"))
            _ = try await holder.waitForLog("the lock holder") { $0.contains("held") ? true : nil }
            let waited = await station.audit.syncNow()
            #expect(waited.pushed == 0 && waited.remaining == 1, "\(waited)")
            #expect(waited.stoppedBy?.contains("Another process of this station is sending") == true, "\(waited)")
            #expect(await server.audits.stored.isEmpty)
            await holder.kill9()
            let sent = await station.audit.syncNow()
            #expect(sent.pushed == 1 && sent.remaining == 0 && sent.stoppedBy == nil, "\(sent)")
            #expect(await server.audits.stored.count == 1)
        }
    }

    @Test("The lock waits while another process holds it, gives up after its patience, and is free once that process is killed")
    func lockHeldByAnotherProcess() async throws {
        let database = TestServer.temporaryPath()
        let lock = SendLock(databasePath: database)
        let path = try #require(lock.path)
        let log = URL(fileURLWithPath: database + ".holder.log")
        // flock(1) holds the lock itself (-o: not in the shell it runs) until it is killed.
        let holder = try await Child.start("/usr/bin/flock", ["-o", path, "-c", "echo held; exec sleep 20"], log: log)
        _ = try await holder.waitForLog("the lock holder") { $0.contains("held") ? true : nil }
        let started = ContinuousClock.now
        #expect(await lock.acquire(patience: .milliseconds(300)) == nil)
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        await holder.kill9()
        let turn = try #require(await lock.acquire(patience: .seconds(10)))
        // Held here now: another descriptor of the same file is refused.
        #expect(await lock.acquire(patience: .milliseconds(100)) == nil)
        turn.release()
        let again = try #require(await lock.acquire(patience: .seconds(1)))
        again.release()
        #expect(SendLock(databasePath: ":memory:").path == nil)
    }
}
