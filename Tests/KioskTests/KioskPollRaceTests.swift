import AuditTestSupport
import BrowserTestSupport
import Foundation
import InventoryCore
import InventoryStore
@testable import Kiosk
import Logging
import NIOCore
@testable import Station
import Testing
import TestKit

/// The kiosk reads its audit every 2 seconds (`poll`), for the scans of other stations. A
/// reading made before a refusal, an undo or a scan, and answered after it, is older than the
/// numbers the kiosk then holds: it must not put them back. The reading is held at a gate here,
/// so the order is forced rather than left to chance.
@Suite("The kiosk's 2-second reading never puts back numbers older than a refusal")
struct KioskPollRaceTests {
    /// The station's store, whose reading of the audit can be held after it was made.
    actor Gate {
        private var armed = false
        private var waiting: CheckedContinuation<Void, Never>?
        private var arrived: CheckedContinuation<Void, Never>?
        private var hasArrived = false

        func arm() { armed = true }

        /// Called by the store once its reading is made: waits while the gate is armed.
        func pass() async {
            guard armed else { return }
            armed = false
            hasArrived = true
            arrived?.resume()
            arrived = nil
            await withCheckedContinuation { waiting = $0 }
        }

        /// Returns once a reading waits at the gate.
        func reached() async {
            if hasArrived { return }
            await withCheckedContinuation { arrived = $0 }
        }

        func release() {
            waiting?.resume()
            waiting = nil
        }
    }

    struct HeldStore: ForwardingAuditService {
        let store: any AuditService
        let gate: Gate

        func audit(id: AuditID) async throws -> AuditSession {
            let reading = try await store.audit(id: id)
            await gate.pass()
            return reading
        }
    }

    /// A kiosk over a store of two Singapore assets, scanning into an audit of them.
    static func kiosk(gate: Gate, hub: EventHub) async throws -> KioskStation {
        let path = TestServer.temporaryPath()
        let database = try AppDatabase(path: path)
        let assets = SQLiteAssetService(database: database)
        for tag in ["SG-1", "SG-2"] {
            _ = try await assets.create(AssetInput(assetTag: tag, name: "Laptop", status: "IN_STOCK", country: "SG"))
        }
        let context = StationContext(
            config: StationConfig(), databasePath: path, actor: Actor(user: "kiosk", station: "kiosk-1"),
            audit: HeldStore(store: SQLiteAuditService(database: database, defaultStation: "kiosk-1"), gate: gate), assets: assets,
            accessories: SQLiteAccessoryService(database: database), customers: SQLiteCustomerService(database: database),
            connection: nil)
        let station = KioskStation(context: context, user: "Kim", device: nil, hub: hub, logger: Logger(label: "kiosk-poll-race"))
        _ = try await station.start(country: "SG")
        return station
    }

    /// The events the hub sent, by name and data, once it is finished.
    static func events(_ stream: AsyncStream<ByteBuffer>) async -> [(name: String, data: [String: Any])] {
        var all: [(name: String, data: [String: Any])] = []
        for await frame in stream {
            let text = String(buffer: frame)
            let lines = text.split(separator: "\n")
            guard let name = lines.first(where: { $0.hasPrefix("event: ") })?.dropFirst(7),
                let data = lines.first(where: { $0.hasPrefix("data: ") })?.dropFirst(6),
                let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
            else { continue }
            all.append((String(name), object))
        }
        return all
    }

    @Test("A reading made before a refusal and answered after it leaves the refusal's numbers")
    func readingAcrossARefusal() async throws {
        let gate = Gate()
        let hub = EventHub()
        let station = try await Self.kiosk(gate: gate, hub: hub)
        let scanned = try await station.scan("SG-1", scanID: "scan-1")
        #expect(scanned.progress?.scannedCount == 1)
        let (_, stream) = hub.subscribe()

        // The reading counts SG-1; the server's refusal of SG-1 comes while it is held.
        await gate.arm()
        let poll = Task { await station.poll() }
        await gate.reached()
        // As a connected station's copy does once the server refused a scan, the store stops
        // counting SG-1 (here by its void); the held reading was made before that.
        let audit = try #require(await station.state().audit)
        let store = SQLiteAuditService(database: try AppDatabase(path: await station.context.databasePath), defaultStation: "kiosk-1")
        let voided = try await store.void(VoidRequest(scanId: "scan-1", auditId: audit.id, reason: "Refused by the server"))
        let origin = ScanOrigin(source: .manual, place: nil, user: "Kim", station: "kiosk-1", at: Date())
        var refusal = ScanRefusal(
            identifier: "SG-1", scanID: "scan-1", code: .refusedByServer, message: "The server refused SG-1", origin: origin)
        // The refusal's numbers carry the revision of the change that made them, as every
        // store's and copy's numbers do; the held reading's is lower.
        refusal.progress = voided.progress
        #expect(voided.progress.scannedCount == 0 && voided.progress.revision != nil)
        await station.published(.refused(refusal))
        await gate.release()
        await poll.value

        #expect(await station.state().audit?.scannedCount == 0)
        hub.finishAll()
        let sent = await Self.events(stream)
        #expect(sent.contains { $0.name == "scan" && $0.data["kind"] as? String == "rejected" })
        // Nothing sent after the refusal counts SG-1 again.
        let refusedAt = try #require(sent.firstIndex { $0.name == "scan" && $0.data["kind"] as? String == "rejected" })
        let later = sent[refusedAt...].compactMap { event -> Int? in
            switch event.name {
            case "progress": return (event.data["progress"] as? [String: Any])?["scanned_count"] as? Int
            case "state": return (event.data["audit"] as? [String: Any])?["scanned_count"] as? Int
            default: return nil
            }
        }
        #expect(later.allSatisfy { $0 == 0 }, "numbers sent after the refusal: \(later)")

        // The next reading, made after the refusal, is taken as ever.
        await station.poll()
        #expect(await station.state().audit?.scannedCount == 0)
    }

    @Test("A reading with nothing learned while it was made still brings other stations' scans")
    func readingOfOtherStations() async throws {
        let gate = Gate()
        let hub = EventHub()
        let station = try await Self.kiosk(gate: gate, hub: hub)
        let audit = try #require(await station.state().audit)
        // Another station's scan, stored beside this kiosk's: only the reading brings it here.
        let other = SQLiteAuditService(database: try AppDatabase(path: await station.context.databasePath), defaultStation: "kiosk-2")
        _ = try await other.record(ScanRequest(identifier: "SG-2", auditId: audit.id, scannedAt: Date(), deviceName: "kiosk-2"))
        #expect(await station.state().audit?.scannedCount == 0)
        await station.poll()
        #expect(await station.state().audit?.scannedCount == 1)
    }
}
