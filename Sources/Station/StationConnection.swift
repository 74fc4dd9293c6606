import AuditClient
import ConnectedStation
import Foundation
import InventoryCore

/// What a station can do only when it is logged in to a server: push its outbox, say how the
/// outbox stands, and tell whether the server answers. A standalone station has none, so
/// front ends ask `StationContext.connection` rather than downcasting the audit service.
public protocol StationConnection: Sendable {
    /// The server's base address.
    var server: String { get }
    /// Scans waiting, synced and refused, and the last sync.
    func status() async throws -> ConnectedStatus
    /// Which of `scanIDs` still wait in the outbox (from the rows `status()` counts).
    func waitingScans(among scanIDs: [String]) async throws -> Set<String>
    /// An expected tag or serial number of the audit that `identifier` matches except for case,
    /// from the local copy only, so it answers at once whatever the network does.
    func caseHint(_ identifier: String, auditID: AuditID) async -> String?
    /// Pushes the outbox now and reports what went.
    func syncNow() async -> SyncReport
    /// Starts pushing in the background, without waiting.
    func startSync() async
    /// Whether the server answers a call within `timeout`.
    func probe(timeout: Duration) async -> Bool
    /// The running audits this station holds a local copy of, with its pending scans counted;
    /// from the local database only, so it answers at once whatever the network does.
    func heldAudits() async throws -> [AuditSession]
    /// Asks the server how the held audits stand and takes its answer in; meant to run beside.
    func refreshHeld() async
    /// Readies the local copy of an audit it holds (no network), so the first scan is quick.
    func prepare(auditID: AuditID) async
    /// Makes the local copy of a running audit from the server, so that every scan into it is
    /// decided and kept here, with the server reachable or not.
    func join(auditID: AuditID) async throws
    /// Sets who is told the server's outcome of each scan shown pending, with its first scan.
    func onDecided(_ handler: (@Sendable (ScanResult, FirstScan) async -> Void)?) async
    /// Sets who is told of each scan the server refused (audit, scan id, identifier, message, origin).
    func onRefused(_ handler: ConnectedAuditService.RefusalHandler?) async
    /// This station's latest scans of an audit from its own database, newest first, in any state.
    func ownScans(auditID: AuditID, limit: Int) async throws -> [OwnScan]
}

extension ConnectedAuditService: StationConnection {
    public nonisolated var server: String { serverAddress }
    public func status() async throws -> ConnectedStatus { try await connectedStatus() }
}
