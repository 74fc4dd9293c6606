import Foundation
import GRDB
import InventoryCore

extension SQLiteAuditService {
    /// The audit's scans in the order they were stored, a page at a time; `search` narrows to
    /// identifiers, stations or users that contain it.
    public func scans(auditID: AuditID, query: ListQuery) async throws -> Page<ScanRecord> {
        try await database.read { db in
            _ = try AuditRows.fetchSession(db, id: auditID)
            var filter = " WHERE s.audit_id = ?"
            var arguments: StatementArguments = [auditID]
            if let pattern = query.search.map(likePattern) {
                filter += " AND (s.identifier LIKE ? ESCAPE '\\' OR s.station LIKE ? ESCAPE '\\' OR s.user LIKE ? ESCAPE '\\')"
                arguments += [pattern, pattern, pattern]
            }
            let total = try db.count(sql: "SELECT 1 FROM scans s" + filter, arguments: arguments)
            let items = try Row.fetchAll(
                db, sql: Self.trailSQL + filter + " ORDER BY s.id LIMIT ? OFFSET ?", arguments: arguments + [query.perPage, query.offset]
            ).map(Self.scanRecord)
            return Page(items: items, pagination: Pagination(query: query, total: total))
        }
    }

    public func voidedScans(auditID: AuditID, limit: Int) async throws -> (total: Int, scans: [ScanRecord]) {
        try await database.read { db in
            _ = try AuditRows.fetchSession(db, id: auditID)
            let countSQL = "SELECT count(*) FROM scan_voids v JOIN scans s ON s.id = v.scan_row WHERE s.audit_id = ?"
            let total = try Int.fetchOne(db, sql: countSQL, arguments: [auditID]) ?? 0
            let items = try Row.fetchAll(
                db, sql: Self.trailSQL + " WHERE s.audit_id = ? AND v.void_id IS NOT NULL ORDER BY s.id LIMIT ?", arguments: [auditID, limit]
            ).map(Self.scanRecord)
            return (total, items)
        }
    }

    /// Scans with their voids; `scanRecord` reads its rows. The scan's columns are named, not
    /// `s.*`: each is read into the record's field of its name (the scans' own `voided` flag is
    /// not the record's `voided`).
    static let trailSQL = """
        SELECT s.scan_id, s.audit_id, s.identifier, s.status, s.reason, s.message, s.asset_id, s.source, s.station, s.user,
            s.scanned_at, s.recorded_at, s.late, v.void_id, v.reason AS void_reason, v.station AS void_station, v.user AS void_user,
            v.voided_at, v.recorded_at AS void_recorded_at, EXISTS (SELECT 1 FROM scan_photos p WHERE p.scan_row = s.id) AS has_photo,
            (SELECT a.name FROM assets a WHERE a.id = s.asset_id) AS asset_name
        FROM scans s LEFT JOIN scan_voids v ON v.scan_row = s.id
        """

    static func scanRecord(_ row: Row) throws -> ScanRecord {
        var record = try ScanRecord(row: row)
        record.late = record.late == true ? true : nil
        record.voided = (row["void_id"] as String?).map { voidID in
            ScanVoid(
                voidId: voidID, scanId: row["scan_id"], auditId: row["audit_id"], reason: row["void_reason"],
                station: row["void_station"], user: row["void_user"], voidedAt: row["voided_at"], recordedAt: row["void_recorded_at"])
        }
        return record
    }

    /// Scans counted per station or per user: all of them, and the first finds of expected and
    /// unexpected identifiers (which is what moved the audit's numbers).
    enum TallyColumn: String { case station, user }

    /// Counted from the audit's scans (voided ones too, as a first find is never a voided
    /// scan), each looked up in the expected and unexpected entries through their first-scan
    /// indexes, so the expected set is never walked; names whose scans are all voided are left out.
    static func tallies(_ db: Database, auditID: AuditID, by tally: TallyColumn) throws -> [ScanTally] {
        let column = tally.rawValue
        return try Row.fetchAll(
            db,
            sql: """
                SELECT s.\(column) AS name, sum(NOT s.voided) AS scans,
                    sum((SELECT count(*) FROM audit_expected e WHERE e.first_scan_id = s.id AND e.audit_id = s.audit_id)) AS found,
                    sum((SELECT count(*) FROM audit_unexpected u WHERE u.audit_id = s.audit_id AND u.first_scan_id = s.id)) AS unexpected
                FROM scans s WHERE s.audit_id = ? GROUP BY s.\(column) HAVING sum(NOT s.voided) > 0 ORDER BY scans DESC, name
                """, arguments: [auditID]
        ).map { ScanTally(name: $0["name"], scans: $0["scans"], found: $0["found"], unexpected: $0["unexpected"]) }
    }

    /// The audit's numbers by location, station, user and hour, in one read.
    public func breakdown(auditID: AuditID) async throws -> AuditBreakdown {
        try await database.read { db in
            _ = try AuditRows.fetchSession(db, id: auditID)
            let hours = try Row.fetchAll(
                db,
                sql: """
                    SELECT strftime('%Y-%m-%dT%H:00:00Z', scanned_at) AS hour, count(*) AS scans
                    FROM scans WHERE audit_id = ? AND NOT voided GROUP BY hour ORDER BY hour
                    """, arguments: [auditID]
            ).map { HourTally(hour: $0["hour"], scans: $0["scans"]) }
            return AuditBreakdown(
                auditId: auditID, byLocation: try Self.locationTallies(db, auditID: auditID),
                byStation: try Self.tallies(db, auditID: auditID, by: .station), byUser: try Self.tallies(db, auditID: auditID, by: .user),
                scansPerHour: hours)
        }
    }
}

/// Read by its fields' names in snake case, as `Records` are (`SQLiteAuditService.scanRecord`).
extension ScanRecord: FetchableRecord {
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
}
