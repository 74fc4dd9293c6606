import AuditClient
import ConnectedStation
import AuditTestSupport
import Foundation
import InventoryCore
import InventoryStore
import Station
import TestKit
import Testing

/// The server's news of a scan (its decision on a pending scan, or its refusal) can come back
/// while the session still waits for the store's answer for that scan: the sync pushes a scan
/// as soon as it is stored. The observer must get the scan's own outcome first and the news
/// after it, or the news is overwritten by the outcome it replaces.
@Suite("A scan's news from the server comes after its own outcome")
struct ScanSessionNewsTests {
    /// A station link whose server answers at once: the store below tells it of each scan
    /// before its own answer reaches the session.
    actor ImmediateServer: StationConnection {
        nonisolated var server: String { "http://127.0.0.1:9" }
        private var decided: (@Sendable (ScanResult, FirstScan) async -> Void)?
        private var refused: ConnectedAuditService.RefusalHandler?

        func status() async throws -> ConnectedStatus { throw InventoryError.unavailable("not used") }
        func waitingScans(among scanIDs: [String]) async throws -> Set<String> { [] }
        func caseHint(_ identifier: String, auditID: AuditID) async -> String? { nil }
        func syncNow() async -> SyncReport { SyncReport() }
        func startSync() async {}
        func probe(timeout: Duration) async -> Bool { true }
        func heldAudits() async throws -> [AuditSession] { [] }
        func refreshHeld() async {}
        func prepare(auditID: AuditID) async {}
        func join(auditID: AuditID) async throws {}
        func onDecided(_ handler: (@Sendable (ScanResult, FirstScan) async -> Void)?) async { decided = handler }
        func onRefused(_ handler: ConnectedAuditService.RefusalHandler?) async { refused = handler }
        func ownScans(auditID: AuditID, limit: Int) async throws -> [OwnScan] { [] }

        /// The server's answer to a stored scan: unknown tags are refused, the rest decided as stored.
        func answer(_ result: ScanResult, identifier: String) async {
            let first = FirstScan(scannedAt: Date(), station: "kiosk-1", user: "lead", source: .manual)
            if result.status == .unknown {
                await refused?(result.auditId, result.scanId, identifier, "not a tag here", first, nil)
            } else {
                await decided?(result, first)
            }
        }
    }

    /// The station's store, whose answer to each scan reaches the session only after the server's.
    struct SlowStore: ForwardingAuditService {
        let store: any AuditService
        let server: ImmediateServer

        func record(_ scan: ScanRequest) async throws -> ScanResult {
            let result = try await store.record(scan)
            await server.answer(result, identifier: scan.identifier)
            return result
        }
    }

    @Test func newsThatComesWhileTheScanIsStoredIsObservedAfterIt() async throws {
        let database = try AppDatabase(path: TestServer.temporaryPath())
        let assets = SQLiteAssetService(database: database)
        _ = try await assets.create(AssetInput(assetTag: "SG-1", name: "Laptop", status: "IN_STOCK", country: "SG"))
        let server = ImmediateServer()
        let service = SlowStore(store: SQLiteAuditService(database: database), server: server)
        let actor = Actor(user: "lead", station: "kiosk-1")
        let audit = try await service.start(country: "SG", by: actor)
        let seen = Locked<[String]>([])
        let session = ScanSession(service: service, connection: server, audit: audit, actor: actor) { event in
            seen.update { $0.append(ScanSessionBatchTests.outline(event)) }
        }
        await session.record("SG-1", source: .manual)
        await session.record("NOPE-1", source: .manual)
        #expect(
            seen.get() == ["found_expected SG-1 at -", "found_expected SG-1 at -", "unknown NOPE-1 at -", "refused REFUSED_BY_SERVER NOPE-1"])
    }
}
