import Foundation
import InventoryCore
import PostgresNIO

extension PostgresAuditService {
    /// The audit's scans in the order they were stored, a page at a time; `search` narrows to
    /// identifiers, stations or users that contain it.
    public func scans(auditID: AuditID, query: ListQuery) async throws -> Page<ScanRecord> {
        try await database.read { c in
            _ = try await PGRows.fetchSession(c, id: auditID)
            var binds = Binds()
            var filter = " WHERE s.audit_id = \(binds.add(auditID))"
            if let search = query.search {
                let p = binds.add(likePattern(search))
                filter += " AND (s.identifier ILIKE \(p) OR s.station ILIKE \(p) OR s.user_name ILIKE \(p))"
            }
            let total = try await c.count("SELECT 1 FROM scans s" + filter, binds.bindings)
            let limit = binds.add(query.perPage), offset = binds.add(query.offset)
            let items = try await c.rows(
                PostgresQuery(unsafeSQL: Self.trailSQL + filter + " ORDER BY s.id LIMIT \(limit) OFFSET \(offset)", binds: binds.bindings)
            ).map(Self.scanRecord)
            return Page(items: items, pagination: Pagination(query: query, total: total))
        }
    }

    public func voidedScans(auditID: AuditID, limit: Int) async throws -> (total: Int, scans: [ScanRecord]) {
        try await database.read { c in
            _ = try await PGRows.fetchSession(c, id: auditID)
            var binds = Binds()
            let filter = " WHERE s.audit_id = \(binds.add(auditID)) AND v.void_id IS NOT NULL"
            let total = try await c.count("SELECT 1 FROM scans s JOIN scan_voids v ON v.scan_row = s.id" + filter, binds.bindings)
            let items = try await c.rows(
                PostgresQuery(unsafeSQL: Self.trailSQL + filter + " ORDER BY s.id LIMIT \(binds.add(limit))", binds: binds.bindings)
            ).map(Self.scanRecord)
            return (total, items)
        }
    }

    /// Scans with their voids; `scanRecord` reads its rows. The scan's columns are named, as on
    /// SQLite (the scans' own `voided` flag is not the record's `voided`).
    static let trailSQL = """
        SELECT s.scan_id, s.audit_id, s.identifier, s.status, s.reason, s.message, s.asset_id, s.source, s.station,
            s.user_name AS "user", s.scanned_at, s.recorded_at, s.late, v.void_id, v.reason AS void_reason, v.station AS void_station,
            v.user_name AS void_user, v.voided_at, v.recorded_at AS void_recorded_at,
            EXISTS (SELECT 1 FROM scan_photos p WHERE p.scan_row = s.id) AS has_photo,
            (SELECT a.name FROM assets a WHERE a.id = s.asset_id) AS asset_name
        FROM scans s LEFT JOIN scan_voids v ON v.scan_row = s.id
        """

    static func scanRecord(_ row: PostgresRandomAccessRow) throws -> ScanRecord {
        var record = try PGRowDecoder.decode(ScanRecord.self, from: row)
        record.late = record.late == true ? true : nil
        record.voided = try row.get("void_id", as: String?.self).map { voidID in
            ScanVoid(
                voidId: voidID, scanId: try row.get("scan_id"), auditId: try row.get("audit_id"), reason: try row.get("void_reason"),
                station: try row.get("void_station"), user: try row.get("void_user"), voidedAt: try row.get("voided_at"),
                recordedAt: try row.get("void_recorded_at"))
        }
        return record
    }

    /// Scans counted per station or per user: all of them, and the first finds of expected and
    /// unexpected identifiers (which is what moved the audit's numbers).
    /// Counted from the audit's scans (voided ones too, as a first find is never a voided
    /// scan), each looked up in the expected and unexpected entries through their first-scan
    /// indexes, so the expected set is never walked; names whose scans are all voided are left out.
    static func tallies(_ c: PostgresConnection, auditID: AuditID, by column: String) async throws -> [ScanTally] {
        var binds = PostgresBindings()
        binds.append(auditID)
        return try await c.rows(
            PostgresQuery(
                unsafeSQL: """
                    SELECT s.\(column) AS name, count(*) FILTER (WHERE NOT s.voided) AS scans,
                        sum((SELECT count(*) FROM audit_expected e WHERE e.first_scan_id = s.id AND e.audit_id = s.audit_id))::bigint AS found,
                        sum((SELECT count(*) FROM audit_unexpected u WHERE u.audit_id = s.audit_id AND u.first_scan_id = s.id))::bigint AS unexpected
                    FROM scans s WHERE s.audit_id = $1 GROUP BY s.\(column) HAVING count(*) FILTER (WHERE NOT s.voided) > 0
                    ORDER BY scans DESC, s.\(column) COLLATE "C"
                    """, binds: binds)
        ).map {
            ScanTally(name: try $0.get("name"), scans: try $0.get("scans"), found: try $0.get("found"), unexpected: try $0.get("unexpected"))
        }
    }

    /// The audit's numbers by location, station, user and hour, of one moment.
    public func breakdown(auditID: AuditID) async throws -> AuditBreakdown {
        try await database.transaction(.snapshotReadOnly) { c in
            _ = try await PGRows.fetchSession(c, id: auditID)
            let hours = try await c.rows(
                """
                SELECT to_char(date_trunc('hour', scanned_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"HH24":00:00Z"') AS hour, count(*) AS scans
                FROM scans WHERE audit_id = \(auditID) AND NOT voided GROUP BY 1 ORDER BY 1
                """
            ).map { HourTally(hour: try $0.get("hour"), scans: try $0.get("scans")) }
            return AuditBreakdown(
                auditId: auditID, byLocation: try await Self.locationTallies(c, auditID: auditID),
                byStation: try await Self.tallies(c, auditID: auditID, by: "station"),
                byUser: try await Self.tallies(c, auditID: auditID, by: "user_name"), scansPerHour: hours)
        }
    }
}
