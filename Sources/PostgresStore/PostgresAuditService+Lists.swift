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
    public func report(auditID: AuditID, format: ReportFormat, to output: @escaping @Sendable (Data) throws -> Void) async throws {
        try await database.transaction(.snapshotReadOnly) { c in
            let audit = try await PGRows.fetchSession(c, id: auditID)
            var writer = try ReportWriter(format: format, summary: ReportSummary(audit))
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
                    if writer.buffer.count >= flushSize { try output(writer.drain()) }
                }
            }
            writer.finish()
            try output(writer.drain())
        }
    }

    /// The report's columns, in `ReportWriter.columns` order, all as text (so each cell's bytes
    /// are its UTF-8 text).
    static let reportTime = "to_char(s.scanned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"

    static let reportExpectedSQL = """
        SELECT e.asset_tag, CASE WHEN e.name IS NULL THEN NULL ELSE e.asset_tag END, e.serial_num, e.name,
               CASE WHEN e.first_scan_id IS NULL THEN 'missing' ELSE 'scanned' END, NULL::TEXT,
               \(reportTime), e.scan_count::TEXT, s.station, s.user_name, s.source
        FROM audit_expected e LEFT JOIN scans s ON s.id = e.first_scan_id
        WHERE e.audit_id = $1 ORDER BY e.asset_id
        """

    static let reportUnexpectedSQL = """
        SELECT u.identifier, u.asset_tag, u.serial_num, u.name, 'unexpected', u.reason,
               \(reportTime), u.scan_count::TEXT, s.station, s.user_name, s.source
        FROM audit_unexpected u JOIN scans s ON s.id = u.first_scan_id
        WHERE u.audit_id = $1 ORDER BY u.first_scan_id
        """
}
