import AuditClient
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

    /// The photos of these identifiers' scans: this station's own, kept in its outbox, and the
    /// other stations' from a server that offers `POST …/photos/find` (ours). A server without it
    /// leaves the station's own; so does one that does not answer within half a second, which is
    /// not asked again for 30 s, so a list is never held up by a server out of reach.
    public func photoScans(auditID: AuditID, identifiers: [String]) async throws -> [String: String] {
        var found = try await outbox.photoScans(auditID: auditID, identifiers: identifiers)
        let others = Array(Set(identifiers).subtracting(found.keys).sorted().prefix(PhotoFindRequest.limit))
        guard !others.isEmpty, photoFindOffered != false, extended != false else { return found }
        if let after = photoFindAfter, ContinuousClock.now < after { return found }
        do {
            let answer = try await client.sendIfOffered(
                .POST, Routes.path(Routes.auditPhotoFind, ["audit_id": auditID]), body: PhotoFindRequest(identifiers: others),
                as: PhotoFindResponse.self, timeout: photoFindTimeout)
            photoFindOffered = answer != nil
            photoFindAfter = nil
            for identifier in others { if let scanID = answer?.photoScans[identifier] { found[identifier] = scanID } }
        } catch {
            photoFindAfter = ContinuousClock.now + .seconds(30)
        }
        return found
    }

    /// Sets how long a list waits for the server's answer about other stations' photos
    /// (half a second unless set).
    public func setPhotoFindTimeout(_ timeout: Duration) { photoFindTimeout = timeout }

    public func prunePhotos(takenBefore date: Date) async throws -> Int {
        try await outbox.prunePhotos(takenBefore: date)
    }

    public func photoStorage(auditID: AuditID?) async throws -> PhotoStorage {
        try await outbox.photoStorage(auditID: auditID)
    }
}
