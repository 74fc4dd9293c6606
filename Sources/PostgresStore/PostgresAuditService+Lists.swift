import Foundation
import InventoryCore
import PostgresNIO

extension PostgresAuditService {
    public func details(auditID: AuditID, list: AuditList, query: ListQuery) async throws -> Page<AuditAsset> {
        try await database.read { c in
            _ = try await PGRows.fetchSession(c, id: auditID)
            var binds = Binds()
            _ = binds.add(auditID)
            var searchSQL = ""
            switch list {
            case .unexpected:
                if let search = query.search {
                    let p = binds.add(likePattern(search))
                    searchSQL = " AND (u.identifier ILIKE \(p) OR u.asset_tag ILIKE \(p) OR u.serial_num ILIKE \(p) OR u.name ILIKE \(p))"
                }
                let sql = PGRows.unexpectedSQL + searchSQL
                let total = try await c.count(sql, binds.bindings)
                let limit = binds.add(query.perPage), offset = binds.add(query.offset)
                let items = try await c.rows(
                    PostgresQuery(
                        unsafeSQL: sql + " ORDER BY u.first_scan_id LIMIT \(limit) OFFSET \(offset)",
                        binds: binds.bindings)
                ).map(PGRows.unexpectedEntry)
                return Page(items: items, pagination: Pagination(query: query, total: total))
            case .all, .scanned, .missing, .misplaced:
                if list == .scanned { searchSQL += " AND e.first_scan_id IS NOT NULL" }
                if list == .missing { searchSQL += " AND e.first_scan_id IS NULL" }
                if list == .misplaced { searchSQL += " AND s.location IS NOT NULL AND s.location IS DISTINCT FROM e.location" }
                if let search = query.search {
                    let p = binds.add(likePattern(search))
                    searchSQL +=
                        " AND (e.asset_tag ILIKE \(p) OR e.serial_num ILIKE \(p) OR e.name ILIKE \(p) OR e.model ILIKE \(p) OR e.location ILIKE \(p))"
                    // As on SQLite, whose search index of the assets serves texts of 3 or more
                    // characters: such a text finds an entry when its asset as it is now contains
                    // it too (see `SQLiteAuditService.details`), so both back ends answer alike.
                    if search.unicodeScalars.count >= 3 {
                        searchSQL +=
                            " AND EXISTS (SELECT 1 FROM assets a WHERE a.id = e.asset_id AND (a.asset_tag ILIKE \(p) OR a.serial_num ILIKE \(p)"
                            + " OR a.name ILIKE \(p) OR a.model ILIKE \(p) OR a.location ILIKE \(p)))"
                    }
                }
                let total = try await c.count(
                    "SELECT 1 FROM audit_expected e LEFT JOIN scans s ON s.id = e.first_scan_id WHERE e.audit_id = $1" + searchSQL, binds.bindings)
                let limit = binds.add(query.perPage), offset = binds.add(query.offset)
                let items = try await c.rows(
                    PostgresQuery(
                        unsafeSQL: PGRows.expectedSQL + searchSQL + " ORDER BY e.asset_id LIMIT \(limit) OFFSET \(offset)",
                        binds: binds.bindings)
                ).map(PGRows.expectedEntry)
                return Page(items: items, pagination: Pagination(query: query, total: total))
            }
        }
    }

    /// Streams the report from a cursor: every expected asset (scanned or missing) in asset
    /// order, then every unexpected entry in the order it was first scanned. postgres-nio asks
    /// the server for more rows only as they are consumed, so the audit never sits in memory
    /// whole; each cell's bytes go straight to the writer, and chunks of about 1 MB to `output`.
    /// One REPEATABLE READ transaction, so both parts and the summary are of one moment.
    public func report(auditID: AuditID, format: ReportFormat, to output: @escaping @Sendable (Data) async throws -> Void) async throws {
        try await database.transaction(.snapshotReadOnly) { c in
            let audit = try await PGRows.fetchSession(c, id: auditID)
            let summary = ReportSummary(
                audit, byLocation: try await Self.locationTallies(c, auditID: auditID),
                byStation: try await Self.tallies(c, auditID: auditID, by: "station"),
                byUser: try await Self.tallies(c, auditID: auditID, by: "user_name"))
            var writer = try ReportWriter(format: format, summary: summary)
            let flushSize = 1 << 20
            let columns = ReportWriter.columns.count
            for sql in [Self.reportExpectedSQL, Self.reportUnexpectedSQL] {
                var binds = PostgresBindings()
                binds.append(auditID)
                for try await row in try await c.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: PostgresDatabase.logger) {
                    writer.beginRow()
                    var index = 0
                    for cell in row where index < columns {
                        if let bytes = cell.bytes {
                            bytes.withUnsafeReadableBytes { writer.appendCell($0) }
                        } else {
                            writer.appendCell(nil)
                        }
                        index += 1
                    }
                    writer.endRow()
                    if writer.buffer.count >= flushSize { try await output(writer.drain()) }
                }
            }
            writer.finish(accessories: try await PGAccessoryCounts.tallies(c, auditID: auditID, accessoryID: nil))
            try await output(writer.drain())
        }
    }

    /// The report's columns, in `ReportWriter.columns` order, all as text (so each cell's bytes
    /// are its UTF-8 text).
    static let reportTime = "to_char(s.scanned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"

    /// The expected assets by registered location, for the report's summary.
    static func locationTallies(_ c: PostgresConnection, auditID: AuditID) async throws -> [LocationTally] {
        try await c.rows(
            """
            SELECT l.location, l.expected, coalesce(f.found, 0) AS found, coalesce(f.misplaced, 0) AS misplaced
            FROM audit_location_expected l LEFT JOIN (
                SELECT e.location, count(*) AS found,
                    count(*) FILTER (WHERE s.location IS NOT NULL AND s.location IS DISTINCT FROM e.location) AS misplaced
                FROM scans s JOIN audit_expected e ON e.first_scan_id = s.id AND e.audit_id = s.audit_id
                WHERE s.audit_id = \(auditID) GROUP BY e.location) f ON f.location IS NOT DISTINCT FROM l.location
            WHERE l.audit_id = \(auditID) ORDER BY l.location IS NULL, l.location COLLATE "C"
            """
        ).map {
            LocationTally(
                location: try $0.get("location"), expected: try $0.get("expected"), found: try $0.get("found"), misplaced: try $0.get("misplaced"))
        }
    }

    static let reportExpectedSQL = """
        SELECT e.asset_tag, CASE WHEN e.name IS NULL THEN NULL ELSE e.asset_tag END, e.serial_num, e.name, e.model, e.status,
               e.location, e.country, a.asset_type, e.company,
               CASE WHEN e.first_scan_id IS NULL THEN 'missing'
                    WHEN s.location IS NOT NULL AND s.location IS DISTINCT FROM e.location THEN 'misplaced' ELSE 'scanned' END, NULL::TEXT,
               s.location, \(reportTime), e.scan_count::TEXT,
               (SELECT count(*) FROM scans v WHERE v.audit_id = e.audit_id AND v.asset_id = e.asset_id AND v.entry_key IS NULL
                AND v.voided)::TEXT,
               s.station, s.user_name, s.source, CASE WHEN s.late THEN \(reportTime.replacingOccurrences(of: "scanned_at", with: "recorded_at")) END
        FROM audit_expected e LEFT JOIN scans s ON s.id = e.first_scan_id LEFT JOIN assets a ON a.id = e.asset_id
        WHERE e.audit_id = $1 ORDER BY e.asset_id
        """

    static let reportUnexpectedSQL = """
        SELECT u.identifier, u.asset_tag, u.serial_num, u.name, u.model, u.status, u.location, u.country, a.asset_type, u.company,
               'unexpected', u.reason, s.location, \(reportTime), u.scan_count::TEXT,
               (SELECT count(*) FROM scans v WHERE v.audit_id = u.audit_id AND v.entry_key = u.key AND v.voided)::TEXT,
               s.station, s.user_name, s.source, CASE WHEN s.late THEN \(reportTime.replacingOccurrences(of: "scanned_at", with: "recorded_at")) END
        FROM audit_unexpected u JOIN scans s ON s.id = u.first_scan_id LEFT JOIN assets a ON a.id = u.asset_id
        WHERE u.audit_id = $1 ORDER BY u.first_scan_id
        """
}
