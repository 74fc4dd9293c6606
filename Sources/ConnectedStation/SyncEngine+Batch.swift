import AuditClient
import AuditAPI
import Foundation
import InventoryCore
import ConnectedStore

/// Pushing the outbox in batches, when the server offers `POST /api/v1/audit/scans` (ours
/// does): up to 500 scans a call, their answers taken in one local transaction. A server
/// that answers 404 or 405 does not have the call, and the station goes one by one.
///
/// Each batch carries the station's clock, so the server can put the scans' times on its own
/// clock (a scan made before an audit's end counts when it arrives after it, `LateScans`), and
/// the station's name with the scans still waiting besides these, so the server knows who may
/// still hold scans when someone ends the audit (`AuditStation`).
extension SyncEngine {
    /// The outcome of each entry in order, or nil when the server has no batch call.
    func pushBatch(_ entries: [OutboxEntry]) async -> [Outcome]? {
        let answer: BatchScanResponse
        // The scans of the first entry's audit still waiting besides these (a batch is of one
        // station, and nearly always of one audit).
        let auditID = entries.first?.auditID ?? ""
        let pending = (try? await outbox.counts().pendingByAudit[auditID]) ?? nil
        let sent = entries.filter { $0.auditID == auditID }.count
        let body = BatchScanRequest(
            scans: entries.map { ScanRequest($0) }, stationClock: Date(), deviceName: entries.first?.station,
            waiting: max(0, (pending ?? sent) - sent))
        do {
            guard
                let offered = try await client.sendIfOffered(
                    .POST, Routes.auditScans, body: body, as: Lenient<BatchScanResponse>.self)
            else { return nil }
            answer = offered.value
        } catch let error as InventoryError {
            // Any other refusal is of the call itself (a body this server will not take): go one by one.
            guard let outcome = Self.passing(error) else { return nil }
            return entries.map { _ in outcome }
        } catch {
            return entries.map { _ in .retry(error.localizedDescription) }
        }
        var byID: [String: BatchScanItem] = [:]
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
                stored.append((data.answer(for: entry, progress: progress), entry))
                outcomes.append(.stored)
                continue
            }
            let message = item.message ?? item.error ?? "refused"
            switch item.status {
            case 401: outcomes.append(.needsLogin(message))
            case 408, 429, 500...: outcomes.append(.retry(message))
            default:
                await reject(entry, message)
                outcomes.append(.rejected)
            }
        }
        do { try await copies.applyServerResults(stored) } catch {
            // Not taken locally: the scans stay pending and are sent again (the server counts them once).
            return entries.map { _ in .retry(error.localizedDescription) }
        }
        for (result, entry) in stored { await deliver(entry, result) }
        return outcomes
    }
}

/// A batch's answer as any server gives it: `{results: [...]}`, one item per scan with its
/// `scan_id`, `success`, the `status` `/scan` would have had (missing reads as 0, a refusal),
/// and the outcome in `data`, read as `/scan`'s answer is. A `data` that is there but is no
/// answer at all makes the whole batch unreadable, so its scans are sent again.
extension BatchScanResponse: LenientDecodable {
    package init(lenient decoder: any Decoder) throws {
        self.init(results: try decoder.lenient().required("results", as: [Lenient<BatchScanItem>].self).map(\.value))
    }
}

extension BatchScanItem: LenientDecodable {
    package init(lenient decoder: any Decoder) throws {
        let fields = try decoder.lenient()
        self.init(
            scanId: fields.text("scanId"), success: try fields.required("success", as: Bool.self), status: fields.integer("status") ?? 0,
            data: try fields.decodeIfPresent(Lenient<ScanResult>.self, forKey: AnyKey("data"))?.value,
            error: fields.text("error"), message: fields.text("message"),
            errors: fields.optional("errors", as: [String: [String]].self))
    }
}
