import AuditClient
import AuditAPI
import Foundation
import InventoryCore
import ConnectedStore

extension ConnectedAuditService {
    /// The audit a scan goes to: the one named, else the only running audit this station holds,
    /// else (it holds none) the only one running as the server, or the copy, says.
    func auditForScan(_ auditID: AuditID?) async throws -> AuditID {
        if let auditID { return auditID }
        var running = try await copies.audits().filter(\.isActive)
        if running.isEmpty { running = try await activeAudits() }
        return try AuditSession.onlyRunning(among: running).id
    }

    /// Readies the copy of an audit this station holds: nothing is loaded (the copy answers
    /// from indexed queries), so this only brings its pages into SQLite's cache.
    public func prepare(auditID: AuditID) async {
        _ = try? await copies.localSession(auditID: auditID)
    }

    /// The audit as this station sees it: the server's last numbers plus its own pending scans.
    /// Its revision is the copy's (this station's scale); a session it holds no copy of is
    /// passed on without one (`unordered`).
    func localSession(_ session: AuditSession) async throws -> AuditSession {
        try await copies.localSession(auditID: session.id) ?? session.unordered
    }

    /// The outcome of a stored scan: the server's when it answered, else the one shown then.
    func result(of local: LocalScan) -> ScanResult {
        let entry = local.entry, decision = local.decision
        let asset = decision.asset.map {
            AuditAsset(
                asset: $0, identifier: entry.identifier, outcome: decision.unexpectedKey == nil ? .scanned : .unexpected,
                reason: decision.reason, firstScan: decision.firstScan ?? entry.firstScan)
        }
        return ScanResult(
            identifier: entry.identifier, status: entry.serverStatus ?? entry.localStatus,
            message: entry.serverMessage ?? entry.localMessage, asset: asset, reason: decision.reason,
            firstScan: decision.firstScan, progress: local.session.progress, auditId: entry.auditID, scanId: entry.scanID,
            foundLocation: entry.location)
    }

    /// A server answer (the copy has taken it): a scan shown pending is now decided, and
    /// whoever showed it is told, with the audit's numbers as this station sees them.
    func take(_ result: ScanResult, for entry: OutboxEntry) async {
        if let accessory = result.accessory { lastTallies[accessory.tag] = accessory }
        guard entry.localStatus == .pending, let handler = decisionHandler else { return }
        var decided = result
        if let local = try? await copies.localSession(auditID: result.auditId) { decided.progress = local.progress }
        await handler(decided, entry.firstScan)
    }

    /// A scan the server refused (the outbox and the copy have forgotten it): whoever showed it
    /// is told, with the audit's numbers as this station sees them now.
    func refused(_ entry: OutboxEntry, _ message: String) async {
        guard let handler = refusalHandler else { return }
        let progress = try? await copies.localSession(auditID: entry.auditID)?.progress
        await handler(entry.auditID, entry.scanID, entry.identifier, message, entry.firstScan, progress)
    }

    /// This station's latest scans of an audit from its own database (newest first): the ones the
    /// server has not had yet and the ones it refused too, which no trail of the server's holds.
    /// Each comes with the asset the copy matches it to, when it does.
    public func ownScans(auditID: AuditID, limit: Int) async throws -> [OwnScan] {
        var scans: [OwnScan] = []
        for entry in try await outbox.latest(auditID: auditID, limit: limit) {
            let decision = try? await copies.decision(for: entry, caseSensitive: caseSensitive)
            scans.append(OwnScan(entry, asset: decision?.asset))
        }
        return scans
    }

    /// Pending, synced and rejected scans, and when the station last reached the server.
    public func connectedStatus() async throws -> ConnectedStatus {
        let counts = try await outbox.counts()
        return ConnectedStatus(
            server: client.baseURL, pendingScans: counts.pending, syncedScans: counts.synced,
            rejectedScans: counts.rejected, pendingVoids: counts.pendingVoids, lastSyncAt: counts.lastSyncAt, lastError: counts.lastError,
            rejected: try await outbox.rejected(limit: 20).map { "\($0.identifier): \($0.lastError ?? "refused")" },
            pendingByAudit: counts.pendingByAudit, rejectedByAudit: counts.rejectedByAudit)
    }

    /// The server's base address.
    public nonisolated var serverAddress: String { client.baseURL }

    /// Whether the server answers a status call within `timeout`. A refusal (such as an
    /// expired login) still means it is reachable. The short timeout matters: the HTTP client
    /// keeps retrying a refused connection until the call's deadline.
    public func probe(timeout: Duration) async -> Bool {
        do {
            _ = try await client.send(.GET, Routes.auditStatus, as: WireStatus.self, timeout: timeout)
            return true
        } catch InventoryError.unavailable {
            return false
        } catch {
            return true
        }
    }

    /// Which of `scanIDs` still wait in the outbox for the server.
    public func waitingScans(among scanIDs: [String]) async throws -> Set<String> {
        try await outbox.waiting(among: scanIDs)
    }

    /// A tag or serial number of the audit's expected set that `identifier` matches except for
    /// case, from the station's copy (no network).
    public func caseHint(_ identifier: String, auditID: AuditID) async -> String? {
        try? await copies.caseHint(identifier, auditID: auditID)
    }

    /// Pushes the outbox now.
    public func syncNow() async -> SyncReport {
        await ensureHandler()
        return await sync.pushNow()
    }
}

/// One scan of this station's outbox, with the asset its copy matches it to.
public struct OwnScan: Sendable, Equatable {
    /// Where the scan stands with the server.
    public enum State: Sendable, Equatable {
        /// Not yet taken by the server: shown as the station decided it.
        case pending
        /// Taken by the server, with its outcome.
        case synced
        /// Refused by the server, for this reason; it counts nowhere.
        case refused(String)
    }

    public var scanID: String
    public var identifier: String
    public var state: State
    /// The server's outcome once it has one, the station's own until then.
    public var status: ScanStatus
    public var message: String
    public var location: String?
    public var source: ScanSource
    public var user: String
    public var station: String
    public var scannedAt: Date
    /// The asset the station's copy matches the scan to, when it does.
    public var asset: AssetBrief?

    init(_ entry: OutboxEntry, asset: AssetBrief?) {
        scanID = entry.scanID
        identifier = entry.identifier
        state =
            switch entry.state {
            case .pending: .pending
            case .synced: .synced
            case .rejected: .refused(entry.lastError ?? "refused")
            }
        status = entry.serverStatus ?? entry.localStatus
        message = entry.serverMessage ?? entry.localMessage
        location = entry.location
        source = entry.source
        user = entry.user
        station = entry.station
        scannedAt = entry.scannedAt
        self.asset = asset
    }
}

/// How a connected station stands, for `audit status` and `sync`.
public struct ConnectedStatus: Sendable, Equatable {
    public var server: String
    public var pendingScans: Int
    public var syncedScans: Int
    public var rejectedScans: Int
    /// Voids made while the server could not be reached, waiting to be sent.
    public var pendingVoids: Int = 0
    public var lastSyncAt: Date?
    public var lastError: String?
    /// Up to 20 refused scans: "identifier: why".
    public var rejected: [String]
    /// The scans waiting for the server, by audit (an audit with none is not listed).
    public var pendingByAudit: [AuditID: Int] = [:]
    /// The scans the server refused, by audit (an audit with none is not listed).
    public var rejectedByAudit: [AuditID: Int] = [:]
}

extension ConnectedAuditService {
    /// The audit's numbers and its expected assets by location, from this station's copy: the
    /// same numbers the station shows, with any network or none.
    public func locationProgress(auditID: AuditID) async throws -> LocationProgress {
        guard let counted = try await copies.locationProgress(auditID: auditID) else {
            throw InventoryError.unavailable("This station holds no copy of audit \(auditID) to count by location")
        }
        return counted
    }
}
