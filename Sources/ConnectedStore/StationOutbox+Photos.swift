import Foundation
import GRDB
import InventoryCore
import InventoryStore

/// A photo waiting to go to the server, with the audit of its scan.
public struct QueuedPhoto: Sendable {
    public var photo: ScanPhoto
    public var auditID: AuditID
    /// The server refused the scan itself, so the photo has nothing to go with.
    public var scanRejected: Bool
}

extension StationOutbox {
    /// Keeps the photo of one of this station's scans, to be sent after the scan; a second
    /// photo of the same scan changes nothing. A scan this station did not make is 404.
    public func addPhoto(_ photo: ScanPhoto, auditID: AuditID?) async throws {
        try await database.write { db in
            guard let scan = try Self.fetch(db, scanID: photo.scanId) else {
                throw InventoryError.notFound("scan \(photo.scanId) of this station")
            }
            if let auditID, auditID != scan.auditID {
                throw InventoryError.notFound("scan \(photo.scanId) in audit \(auditID): it is a scan of another audit")
            }
            try db.execute(
                sql: "INSERT INTO outbox_photos (scan_id, audit_id, jpeg, taken_at) VALUES (?, ?, ?, ?) ON CONFLICT (scan_id) DO NOTHING",
                arguments: [photo.scanId, scan.auditID, photo.jpeg, photo.takenAt])
        }
    }

    /// The photo kept here for a scan, or nil.
    public func photo(scanID: String) async throws -> (photo: ScanPhoto, auditID: AuditID)? {
        try await database.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM outbox_photos WHERE scan_id = ?", arguments: [scanID]) else {
                return nil
            }
            return (try ScanPhoto(scanId: row["scan_id"], jpeg: row["jpeg"], takenAt: row["taken_at"]), row["audit_id"])
        }
    }

    /// For each of `identifiers` this station scanned in the audit with a photo kept here, the
    /// scan id of its first such scan.
    public func photoScans(auditID: AuditID, identifiers: [String]) async throws -> [String: String] {
        try await database.read { db in
            try SQLiteAuditService.firstPhotoScans(db, auditID: auditID, identifiers: identifiers) { marks in
                """
                SELECT o.identifier, o.scan_id FROM outbox o JOIN outbox_photos p ON p.scan_id = o.scan_id
                WHERE o.audit_id = ? AND o.identifier IN (\(marks)) ORDER BY o.seq
                """
            }
        }
    }

    /// Up to `limit` photos whose scans the server has answered, oldest first: a bounded batch
    /// (at most `limit` × 200 KB in memory).
    public func readyPhotos(limit: Int) async throws -> [QueuedPhoto] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT p.*, o.state AS scan_state FROM outbox_photos p JOIN outbox o ON o.scan_id = p.scan_id
                    WHERE p.state = 'pending' AND o.state != 'pending' ORDER BY p.taken_at, p.scan_id LIMIT ?
                    """, arguments: [limit]
            ).map { row in
                QueuedPhoto(
                    photo: try ScanPhoto(scanId: row["scan_id"], jpeg: row["jpeg"], takenAt: row["taken_at"]), auditID: row["audit_id"],
                    scanRejected: (row["scan_state"] as String) == OutboxState.rejected.rawValue)
            }
        }
    }

    /// A photo's delivery: sent (`synced`), refused for good (`rejected`, with why), or failed
    /// for now (still pending, with why).
    public func settlePhoto(scanID: String, state: OutboxState, error: String? = nil) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE outbox_photos SET state = ?, attempts = attempts + 1, last_error = ? WHERE scan_id = ?",
                arguments: [state.rawValue, error, scanID])
        }
    }

    /// Deletes photos taken before `date` that no longer wait for the server.
    public func prunePhotos(takenBefore date: Date) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM outbox_photos WHERE taken_at < ? AND state != 'pending'", arguments: [date])
            return db.changesCount
        }
    }

    public func photoStorage(auditID: AuditID?) async throws -> PhotoStorage {
        try await database.read { db in
            let filter = auditID == nil ? "" : " WHERE audit_id = ?"
            let row = try Row.fetchOne(
                db, sql: "SELECT count(*) AS n, COALESCE(sum(length(jpeg)), 0) AS b FROM outbox_photos" + filter,
                arguments: StatementArguments(auditID.map { [$0] } ?? []))
            return PhotoStorage(photos: row?["n"] ?? 0, bytes: row?["b"] ?? 0)
        }
    }

    /// Photos still waiting for the server.
    public func pendingPhotoCount() async throws -> Int {
        try await database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox_photos WHERE state = 'pending'") ?? 0 }
    }
}
