import Foundation
import GRDB
import InventoryCore

extension SQLiteAuditService {
    public func attachPhoto(_ photo: ScanPhoto, auditID: AuditID?) async throws {
        try await database.write { db in
            let row = try Self.photoScan(db, scanID: photo.scanId, auditID: auditID, attachedBy: photo.attachedBy)
            try db.cachedStatement(
                sql: """
                    INSERT INTO scan_photos (scan_row, audit_id, jpeg, bytes, taken_at, recorded_at) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (scan_row) DO NOTHING
                    """
            ).execute(arguments: [row.id, row.auditID, photo.jpeg, photo.jpeg.count, photo.takenAt, Date()])
        }
    }

    public func photo(scanID: String, auditID: AuditID?) async throws -> ScanPhoto? {
        try await database.read { db in
            let scan = try Self.photoScan(db, scanID: scanID, auditID: auditID)
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT jpeg, taken_at FROM scan_photos WHERE scan_row = ?"), arguments: [scan.id])
            else { return nil }
            return try ScanPhoto(scanId: scanID, jpeg: row["jpeg"], takenAt: row["taken_at"])
        }
    }

    public func prunePhotos(takenBefore date: Date) async throws -> Int {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM scan_photos WHERE taken_at < ?", arguments: [date])
            return db.changesCount
        }
    }

    public func photoStorage(auditID: AuditID?) async throws -> PhotoStorage {
        try await database.read { db in
            let row =
                if let auditID {
                    try Row.fetchOne(
                        db, sql: "SELECT count(*) AS n, COALESCE(sum(bytes), 0) AS b FROM scan_photos WHERE audit_id = ?",
                        arguments: [auditID])
                } else {
                    try Row.fetchOne(db, sql: "SELECT count(*) AS n, COALESCE(sum(bytes), 0) AS b FROM scan_photos")
                }
            return PhotoStorage(photos: row?["n"] ?? 0, bytes: row?["b"] ?? 0)
        }
    }

    public func photoScans(auditID: AuditID, identifiers: [String]) async throws -> [String: String] {
        try await database.read { db in
            try Self.firstPhotoScans(db, auditID: auditID, identifiers: identifiers) { marks in
                """
                SELECT s.identifier, s.scan_id FROM scans s JOIN scan_photos p ON p.scan_row = s.id
                WHERE s.audit_id = ? AND s.identifier IN (\(marks)) ORDER BY s.id
                """
            }
        }
    }

    /// Runs `sql` (made for the `?` marks of the identifiers; it selects `identifier` and
    /// `scan_id` of scans with a photo, of the audit, in the order they were made) and keeps the
    /// first scan of each identifier. At most 500 identifiers are looked up.
    public static func firstPhotoScans(
        _ db: Database, auditID: AuditID, identifiers: [String], sql: (String) -> String
    ) throws -> [String: String] {
        let wanted = Array(Set(identifiers).prefix(500))
        guard !wanted.isEmpty else { return [:] }
        let marks = Array(repeating: "?", count: wanted.count).joined(separator: ", ")
        var found: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: sql(marks), arguments: StatementArguments([auditID] + wanted))
        where found[row["identifier"]] == nil {
            found[row["identifier"]] = row["scan_id"] as String
        }
        return found
    }

    /// The stored scan a photo belongs to; 404 for a scan that does not exist or is of another audit.
    static func photoScan(_ db: Database, scanID: String, auditID: AuditID?, attachedBy: String? = nil) throws -> (id: Int64, auditID: AuditID) {
        guard
            let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, audit_id, user FROM scans WHERE scan_id = ?"), arguments: [scanID])
        else { throw InventoryError.notFound("scan \(scanID)") }
        let owner: AuditID = row["audit_id"]
        if let auditID, auditID != owner { throw InventoryError.notFound("scan \(scanID) in audit \(auditID): it is a scan of another audit") }
        try ScanPhoto.checkOwner(scanID: scanID, scannedBy: row["user"], attachedBy: attachedBy)
        return (row["id"], owner)
    }
}
