import Foundation
import InventoryCore
import PostgresNIO

extension PostgresAuditService {
    public func heard(_ report: StationReport) async throws {
        try await database.read { c in
            guard
                try await c.row(
                    """
                    INSERT INTO audit_stations (audit_id, station, user_name, joined_at, last_seen_at, waiting)
                    SELECT id, \(report.station), \(report.user), \(report.at), \(report.at), \(report.waiting.map(Int64.init))
                    FROM audits WHERE id = \(report.auditID)
                    ON CONFLICT (audit_id, station) DO UPDATE SET user_name = excluded.user_name,
                        last_seen_at = greatest(audit_stations.last_seen_at, excluded.last_seen_at), waiting = excluded.waiting
                    RETURNING station
                    """) != nil
            else { throw InventoryError.notFound("audit \(report.auditID)") }
        }
    }

    public func stations(auditID: AuditID) async throws -> [AuditStation] {
        try await database.read { c in
            _ = try await PGRows.fetchSession(c, id: auditID)
            return try await c.rows(
                """
                SELECT station, user_name AS "user", joined_at, last_seen_at, waiting FROM audit_stations WHERE audit_id = \(auditID)
                ORDER BY station COLLATE "C"
                """
            ).map { try PGRowDecoder.decode(AuditStation.self, from: $0) }
        }
    }
}
