import AuditAPI
import AuditClient
import ConnectedStore
import Foundation
import InventoryCore

/// The wire of a queued scan: what is sent for it, and how the server's answer is read.
extension ScanResult {
    /// The result for `entry`: the server's outcome where it gave one, the station's otherwise;
    /// `progress` is the server's when it sent it.
    func answer(for entry: OutboxEntry, progress: AuditProgress) -> ScanResult {
        // A station's pending is never an answer: a server that says it, or says nothing, about
        // a scan shown pending leaves it decided as unknown.
        let local = entry.localStatus == .pending ? ScanStatus.unknown : entry.localStatus
        var result = ScanResult(
            identifier: entry.identifier, status: status == .pending ? local : status,
            message: message.isEmpty ? entry.localMessage : message, asset: asset, reason: reason,
            firstScan: firstScan, progress: progress, auditId: entry.auditID, scanId: entry.scanID, missingSinceAudit: missingSinceAudit)
        result.accessory = accessory
        return result
    }
}

extension ScanRequest {
    /// `POST /scan` of a queued scan, with only the fields SPEC defines: `{identifier, audit_id,
    /// scan_id, source, scanned_at, device_name}`, and `location` when the station knows where
    /// it stands and `withLocation` (a server of the seeds' API may refuse that field: see
    /// `SyncEngine.push`). The user comes from the token.
    init(_ entry: OutboxEntry, withLocation: Bool = true) {
        self.init(
            identifier: entry.identifier, auditId: entry.auditID, scanId: entry.scanID, source: entry.source,
            scannedAt: entry.scannedAt, deviceName: entry.station, location: withLocation ? entry.location : nil)
    }
}
