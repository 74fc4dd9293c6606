import AuditAPI
import ConnectedStore
import Foundation
import InventoryCore

extension ConnectedAuditService: ScanPhotoService {
    /// Keeps the photo of one of this station's scans in the outbox; the sync sends it after
    /// the scan, whether the server is reachable now or later.
    public func attachPhoto(_ photo: ScanPhoto, auditID: AuditID?) async throws {
        try await outbox.addPhoto(photo, auditID: auditID)
        if autoSync { await sync.kick() }
    }

    /// The photo kept on this station, else the server's (nil when neither has one, or when a
    /// server that speaks only the seeds' API has no photos).
    public func photo(scanID: String, auditID: AuditID?) async throws -> ScanPhoto? {
        if let kept = try await outbox.photo(scanID: scanID), auditID == nil || kept.auditID == auditID { return kept.photo }
        let audit: AuditID
        if let auditID {
            audit = auditID
        } else if let entry = try await outbox.entry(scanID: scanID) {
            audit = entry.auditID
        } else {
            throw InventoryError.invalid(ValidationError(field: "audit_id", message: "is needed to find the photo of another station's scan"))
        }
        let path = Routes.path(Routes.auditPhoto, ["audit_id": audit, "scan_id": scanID])
        let (status, data) = try await client.exchange(.GET, path, query: [:], bytes: nil, timeout: nil)
        if status == 404 || status == 405 { return nil }
        guard (200..<300).contains(status) else { throw client.failure(status: status, data: data, path: path) }
        return try ScanPhoto(scanId: scanID, jpeg: data, takenAt: Date())
    }

    /// The photos kept on this station (of its own scans); the server's lists do not say.
    public func photoScans(auditID: AuditID, identifiers: [String]) async throws -> [String: String] {
        try await outbox.photoScans(auditID: auditID, identifiers: identifiers)
    }

    public func prunePhotos(takenBefore date: Date) async throws -> Int {
        try await outbox.prunePhotos(takenBefore: date)
    }

    public func photoStorage(auditID: AuditID?) async throws -> PhotoStorage {
        try await outbox.photoStorage(auditID: auditID)
    }
}
