import Foundation
import InventoryCore
import NIOCore
import PostgresNIO

extension PostgresAuditService {
    public func attachPhoto(_ photo: ScanPhoto, auditID: AuditID?) async throws {
        try await database.transaction { c in
            let scan = try await Self.photoScan(c, scanID: photo.scanId, auditID: auditID, attachedBy: photo.attachedBy)
            let jpeg = ByteBuffer(bytes: photo.jpeg)
            try await c.run(
                """
                INSERT INTO scan_photos (scan_row, audit_id, jpeg, bytes, taken_at, recorded_at)
                VALUES (\(scan.id), \(scan.auditID), \(jpeg), \(photo.jpeg.count), \(photo.takenAt), \(Date()))
                ON CONFLICT (scan_row) DO NOTHING
                """)
        }
    }

    public func photo(scanID: String, auditID: AuditID?) async throws -> ScanPhoto? {
        try await database.read { c in
            let scan = try await Self.photoScan(c, scanID: scanID, auditID: auditID)
            guard let row = try await c.row("SELECT jpeg, taken_at FROM scan_photos WHERE scan_row = \(scan.id)") else { return nil }
            let jpeg: ByteBuffer = try row.get("jpeg")
            return try ScanPhoto(scanId: scanID, jpeg: Data(jpeg.readableBytesView), takenAt: try row.get("taken_at"))
        }
    }

    public func prunePhotos(takenBefore date: Date) async throws -> Int {
        try await database.transaction { c in
            try await c.rows("DELETE FROM scan_photos WHERE taken_at < \(date) RETURNING scan_row").count
        }
    }

    public func photoStorage(auditID: AuditID?) async throws -> PhotoStorage {
        try await database.read { c in
            let row =
                if let auditID {
                    try await c.row("SELECT count(*) AS n, COALESCE(sum(bytes), 0)::BIGINT AS b FROM scan_photos WHERE audit_id = \(auditID)")
                } else {
                    try await c.row("SELECT count(*) AS n, COALESCE(sum(bytes), 0)::BIGINT AS b FROM scan_photos")
                }
            return PhotoStorage(photos: Int(try row?.get("n", as: Int64.self) ?? 0), bytes: try row?.get("b", as: Int64.self) ?? 0)
        }
    }

    /// The stored scan a photo belongs to; 404 for a scan that does not exist or is of another audit.
    static func photoScan(_ c: PostgresConnection, scanID: String, auditID: AuditID?, attachedBy: String? = nil) async throws -> (
        id: Int64, auditID: AuditID
    ) {
        guard let row = try await c.row("SELECT id, audit_id, user_name FROM scans WHERE scan_id = \(scanID)") else {
            throw InventoryError.notFound("scan \(scanID)")
        }
        let owner: AuditID = try row.get("audit_id")
        if let auditID, auditID != owner { throw InventoryError.notFound("scan \(scanID) in audit \(auditID): it is a scan of another audit") }
        try ScanPhoto.checkOwner(scanID: scanID, scannedBy: try row.get("user_name"), attachedBy: attachedBy)
        return (try row.get("id"), owner)
    }
}
