import AuditAPI
import Foundation
import InventoryCore
import ConnectedStore

/// Pushing the outbox in batches, when the server offers `POST /api/v1/audit/scans` (ours
/// does): up to 500 scans a call, their answers taken in one local transaction. A server
/// that answers 404 or 405 does not have the call, and the station goes one by one.
extension SyncEngine {
    struct BatchBody: Encodable, Sendable { var scans: [ScanBody] }

    struct WireBatch: Decodable, Sendable { var results: [WireBatchItem] }

    struct WireBatchItem: Decodable, Sendable {
        var scanId: String?
        var success: Bool
        var status: Int?
        var data: WireScanResult?
        var error: String?
        var message: String?
    }

    /// The outcome of each entry in order, or nil when the server has no batch call.
    func pushBatch(_ entries: [OutboxEntry]) async -> [Outcome]? {
        let answer: WireBatch
        do {
            guard let offered = try await client.sendIfOffered(.POST, Routes.auditScans, body: BatchBody(scans: entries.map(ScanBody.init)),
                                                               as: WireBatch.self) else { return nil }
            answer = offered
        } catch let error as InventoryError {
            // Any other refusal is of the call itself (a body this server will not take): go one by one.
            guard let outcome = Self.passing(error) else { return nil }
            return entries.map { _ in outcome }
        } catch {
            return entries.map { _ in .retry(error.localizedDescription) }
        }
        var byID: [String: WireBatchItem] = [:]
        for item in answer.results { if let id = item.scanId { byID[id] = item } }
        var stored: [(result: ScanResult, entry: OutboxEntry)] = []
        var outcomes: [Outcome] = []
        for entry in entries {
            guard let item = byID[entry.scanID] else {
                outcomes.append(.retry("the server's batch answer left out scan \(entry.scanID)"))
                continue
            }
            if item.success, let data = item.data {
                let progress = (try? await progress(of: data, for: entry)) ?? AuditProgress(totalAssets: 0, scannedCount: 0, unexpectedCount: 0)
                stored.append((data.result(for: entry, progress: progress), entry))
                outcomes.append(.stored)
                continue
            }
            let message = item.message ?? item.error ?? "refused"
            switch item.status ?? 0 {
            case 401: outcomes.append(.needsLogin(message))
            case 408, 429, 500...: outcomes.append(.retry(message))
            default:
                try? await outbox.reject(scanID: entry.scanID, error: message)
                outcomes.append(.rejected)
            }
        }
        do { try await replica.applyServerResults(stored) } catch {
            // Not taken locally: the scans stay pending and are sent again (the server counts them once).
            return entries.map { _ in .retry(error.localizedDescription) }
        }
        for (result, entry) in stored { await deliver(entry, result) }
        return outcomes
    }
}
