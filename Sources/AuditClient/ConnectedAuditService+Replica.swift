import AuditAPI
import Foundation
import InventoryCore
import InventoryStore

extension ConnectedAuditService {
    /// The audit a scan goes to: the one named, else the only running audit this station holds.
    func auditForScan(_ auditID: AuditID?) async throws -> AuditID {
        if let auditID { return auditID }
        let held = try await replica.audits().filter(\.isActive)
        switch held.count {
        case 1: return held[0].id
        case 0: return try await activeAudits().resolveOne().id
        default: throw InventoryError.ambiguousAudit(countries: held.map(\.country).sorted())
        }
    }

    /// The engine of an audit: in memory, else rebuilt from the replica, else pulled from the
    /// server (joining the audit).
    func engine(for auditID: AuditID) async throws -> AuditEngine {
        if let engine = engines[auditID] { return engine }
        if let loaded = try await replica.loadEngine(auditID: auditID, caseSensitive: caseSensitive) {
            // Another call may have loaded it meanwhile, and scans may have changed it since.
            if let engine = engines[auditID] { return engine }
            engines[auditID] = loaded.engine
            return loaded.engine
        }
        do { try await pull(auditID: auditID) } catch InventoryError.unavailable(let message) {
            throw InventoryError.unavailable("This station has no copy of audit \(auditID) yet and cannot fetch one: \(message)")
        }
        guard let engine = engines[auditID] else { throw InventoryError.notFound("audit \(auditID)") }
        return engine
    }

    /// Loads the engine of an audit this station holds, so the first scan does not wait for
    /// it; nothing is asked of the server.
    public func prepare(auditID: AuditID) async {
        guard engines[auditID] == nil, (try? await replica.session(auditID: auditID)) != nil else { return }
        _ = try? await engine(for: auditID)
    }

    /// The audit as this station sees it: the server's last numbers plus its own pending scans.
    func localSession(_ session: AuditSession) async throws -> AuditSession {
        var session = session
        session.setProgress(try await localProgress(session))
        return session
    }

    func localProgress(_ session: AuditSession) async throws -> AuditProgress {
        let adds = try await outbox.pendingAdds(auditID: session.id)
        return AuditProgress(totalAssets: session.totalAssets, scannedCount: min(session.scannedCount + adds.scanned, session.totalAssets),
                             unexpectedCount: session.unexpectedCount + adds.unexpected)
    }

    /// The outcome of a stored scan, with the progress as this station knows it now.
    func result(of entry: OutboxEntry, engine: AuditEngine, decision: ScanDecision? = nil) async throws -> ScanResult {
        let decision = decision ?? engine.decide(entry.identifier)
        let progress: AuditProgress
        if let session = try await replica.session(auditID: entry.auditID) { progress = try await localProgress(session) }
        else { progress = engine.progress }
        let asset = decision.asset.map {
            AuditAsset(asset: $0, identifier: entry.identifier, outcome: decision.unexpectedKey == nil ? .scanned : .unexpected,
                       reason: decision.reason, firstScan: decision.firstScan ?? entry.firstScan)
        }
        return ScanResult(identifier: entry.identifier, status: entry.localStatus, message: entry.localMessage, asset: asset,
                          reason: decision.reason, firstScan: decision.firstScan, progress: progress,
                          auditId: entry.auditID, scanId: entry.scanID)
    }

    /// Takes a server answer into the in-memory engine (the replica already has it).
    func take(_ result: ScanResult, for entry: OutboxEntry) {
        // Changed in place: a copy of the engine would copy the whole expected set.
        let first = result.firstScan ?? entry.firstScan
        switch result.status {
        case .foundExpected, .alreadyScanned:
            if let id = result.asset?.id { engines[result.auditId]?.markScanned(assetID: id, first) }
        case .unexpected, .unknown:
            let key = result.asset?.id.map { AuditRules.unexpectedKey(assetID: $0) } ?? AuditRules.unexpectedKey(identifier: result.identifier)
            engines[result.auditId]?.markUnexpected(key: key, first)
        }
    }

    /// Pending, synced and rejected scans, and when the station last reached the server.
    public func connectedStatus() async throws -> ConnectedStatus {
        let counts = try await outbox.counts()
        return ConnectedStatus(server: client.baseURL, pendingScans: counts.pending, syncedScans: counts.synced,
                               rejectedScans: counts.rejected, lastSyncAt: counts.lastSyncAt, lastError: counts.lastError,
                               rejected: try await outbox.rejected(limit: 20).map { "\($0.identifier): \($0.lastError ?? "refused")" })
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

    /// Pushes the outbox now.
    public func syncNow() async -> SyncReport {
        await ensureHandler()
        return await sync.pushNow()
    }
}

extension [AuditSession] {
    func resolveOne() throws -> AuditSession {
        switch count {
        case 0: throw InventoryError.noActiveAudit(country: nil)
        case 1: return self[0]
        default: throw InventoryError.ambiguousAudit(countries: map(\.country).sorted())
        }
    }
}

extension AuditSession {
    mutating func setProgress(_ progress: AuditProgress) {
        totalAssets = progress.totalAssets; scannedCount = progress.scannedCount; missingCount = progress.missingCount
        unexpectedCount = progress.unexpectedCount; completionPercentage = progress.completionPercentage
    }
}

/// How a connected station stands, for `audit status` and `sync`.
public struct ConnectedStatus: Sendable, Equatable {
    public var server: String
    public var pendingScans: Int
    public var syncedScans: Int
    public var rejectedScans: Int
    public var lastSyncAt: Date?
    public var lastError: String?
    /// Up to 20 refused scans: "identifier: why".
    public var rejected: [String]
}
