import Foundation
import GRDB
import InventoryCore

extension SQLiteAuditService {
    public func heard(_ report: StationReport) async throws {
        try await database.write { db in
            _ = try AuditRows.fetchSession(db, id: report.auditID)
            try db.cachedStatement(
                sql: """
                    INSERT INTO audit_stations (audit_id, station, user, joined_at, last_seen_at, waiting) VALUES (?1, ?2, ?3, ?4, ?4, ?5)
                    ON CONFLICT (audit_id, station) DO UPDATE SET user = excluded.user,
                        last_seen_at = max(last_seen_at, excluded.last_seen_at), waiting = excluded.waiting
                    """
            ).execute(arguments: [report.auditID, report.station, report.user, report.at, report.waiting])
        }
    }

    public func stations(auditID: AuditID) async throws -> [AuditStation] {
        try await database.read { db in
            _ = try AuditRows.fetchSession(db, id: auditID)
            return try AuditStation.fetchAll(db, sql: "SELECT * FROM audit_stations WHERE audit_id = ? ORDER BY station", arguments: [auditID])
        }
    }
}

/// Read by its fields' names in snake case, as `Records` are.
extension AuditStation: FetchableRecord {
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
}
