import Foundation
import GRDB
import InventoryCore

extension SQLiteAuditService {
    public func details(auditID: AuditID, list: AuditList, query: ListQuery) async throws -> Page<AuditAsset> {
        try await database.read { db in
            _ = try AuditRows.fetchSession(db, id: auditID)
            var searchSQL = ""
            var arguments: StatementArguments = [auditID]
            let pattern = query.search.map(likePattern)
            switch list {
            case .unexpected:
                if let pattern {
                    searchSQL =
                        " AND (u.identifier LIKE ? ESCAPE '\\' OR u.asset_tag LIKE ? ESCAPE '\\' OR u.serial_num LIKE ? ESCAPE '\\' OR u.name LIKE ? ESCAPE '\\')"
                    arguments += [pattern, pattern, pattern, pattern]
                }
                let sql = AuditRows.unexpectedSQL + searchSQL
                let total = try db.count(sql: sql, arguments: arguments)
                let items = try Row.fetchAll(
                    db, sql: sql + " ORDER BY u.first_scan_id LIMIT ? OFFSET ?",
                    arguments: arguments + [query.perPage, query.offset]
                ).map(AuditRows.unexpectedEntry)
                return Page(items: items, pagination: Pagination(query: query, total: total))
            case .all, .scanned, .missing, .misplaced:
                if list == .scanned { searchSQL += " AND e.first_scan_id IS NOT NULL" }
                if list == .missing { searchSQL += " AND e.first_scan_id IS NULL" }
                if list == .misplaced { searchSQL += " AND s.location IS NOT NULL AND s.location IS NOT e.location" }
                if let search = query.search, let pattern {
                    // A text of 3 or more characters takes its candidates from the search index
                    // of the assets, then keeps the entries whose fields *as the audit recorded
                    // them* contain it. So an entry is found when both its asset as it is now and
                    // its recorded row contain the text: an asset edited since the audit started
                    // is found by what both say (not by a name only the old or only the new one
                    // has), and one deleted since the audit ended is not found by such a search.
                    // Indexing each audit's own copy would find those too, but would cost about
                    // 4 s of CPU and 180 MB per 1,000,000 expected assets at every audit's start.
                    // A text held by more than `AssetSearchIndex.commonLimit` assets is searched
                    // in the recorded rows alone (the index would be slower than reading them).
                    if let index = try AssetSearchIndex.candidates(db, search) {
                        searchSQL += " AND e.asset_id IN " + index.sql
                        arguments += [index.argument]
                    }
                    searchSQL +=
                        " AND (e.asset_tag LIKE ? ESCAPE '\\' OR e.serial_num LIKE ? ESCAPE '\\' OR e.name LIKE ? ESCAPE '\\' OR e.model LIKE ? ESCAPE '\\' OR e.location LIKE ? ESCAPE '\\')"
                    arguments += [pattern, pattern, pattern, pattern, pattern]
                }
                let sql = AuditRows.expectedSQL + searchSQL
                if pattern != nil {
                    // A search reads the matching keys once, in order: they give the total and the
                    // page, whose rows are then read by key.
                    let keys = try Int64.fetchAll(
                        db,
                        sql: "SELECT e.asset_id FROM audit_expected e LEFT JOIN scans s ON s.id = e.first_scan_id WHERE e.audit_id = ?"
                            + searchSQL + " ORDER BY e.asset_id", arguments: arguments)
                    let page = Array(keys.dropFirst(query.offset).prefix(query.perPage))
                    let items =
                        page.isEmpty
                        ? []
                        : try Row.fetchAll(
                            db,
                            sql: AuditRows.expectedSQL + " AND e.asset_id IN (\(page.map { _ in "?" }.joined(separator: ", "))) ORDER BY e.asset_id",
                            arguments: [auditID] + StatementArguments(page)
                        ).map(AuditRows.expectedEntry)
                    return Page(items: items, pagination: Pagination(query: query, total: keys.count))
                }
                let total = try db.count(
                    sql: "SELECT 1 FROM audit_expected e LEFT JOIN scans s ON s.id = e.first_scan_id WHERE e.audit_id = ?" + searchSQL,
                    arguments: arguments)
                let items = try Row.fetchAll(
                    db, sql: sql + " ORDER BY e.asset_id LIMIT ? OFFSET ?",
                    arguments: arguments + [query.perPage, query.offset]
                ).map(AuditRows.expectedEntry)
                return Page(items: items, pagination: Pagination(query: query, total: total))
            }
        }
    }

    /// Streams the report: every expected asset (scanned or missing) in asset order, then every
    /// unexpected entry in the order it was first scanned. SQLite hands each cell's bytes
    /// straight to the writer, and chunks of about 1 MB go to `output`.
    ///
    /// The read is one synchronous closure on GRDB's reader thread, which waits (a thread of
    /// GRDB's, not of the concurrency pool) while `output` is a few chunks behind; this task
    /// awaits each chunk and hands it on.
    public func report(auditID: AuditID, format: ReportFormat, to output: @escaping @Sendable (Data) async throws -> Void) async throws {
        let chunks = ChunkStream(capacity: 4)
        async let produced: Void = {
            do {
                try await writeReport(auditID: auditID, format: format, to: chunks)
                chunks.finish(.success(()))
            } catch {
                chunks.finish(.failure(error))
                throw error
            }
        }()
        do {
            while let chunk = try await chunks.next() { try await output(chunk) }
        } catch {
            chunks.abandon(error)
            try? await produced
            throw error
        }
        try await produced
    }

    private func writeReport(auditID: AuditID, format: ReportFormat, to chunks: ChunkStream) async throws {
        try await database.read { db in
            let audit = try AuditRows.fetchSession(db, id: auditID)
            let summary = ReportSummary(
                audit, byLocation: try Self.locationTallies(db, auditID: auditID), byStation: try Self.tallies(db, auditID: auditID, by: .station),
                byUser: try Self.tallies(db, auditID: auditID, by: .user))
            var writer = try ReportWriter(format: format, summary: summary)
            let flushSize = 1 << 20
            let columns = ReportWriter.columns.count
            for sql in [Self.reportExpectedSQL, Self.reportUnexpectedSQL] {
                let statement = try db.makeStatement(sql: sql)
                statement.arguments = [auditID]
                try forEachRawRow(statement, columns: columns) { cell in
                    writer.beginRow()
                    for index in 0..<columns { writer.appendCell(cell(index)) }
                    writer.endRow()
                    if writer.buffer.count >= flushSize { try chunks.put(writer.drain()) }
                }
            }
            writer.finish(accessories: try AccessoryCounts.tallies(db, auditID: auditID))
            try chunks.put(writer.drain())
        }
    }

    /// The audit's numbers and its expected assets by registered location, in one read.
    public func locationProgress(auditID: AuditID) async throws -> LocationProgress {
        try await database.read { db in
            let audit = try AuditRows.fetchSession(db, id: auditID)
            return LocationProgress(auditId: auditID, progress: audit.progress, locations: try Self.locationTallies(db, auditID: auditID))
        }
    }

    /// The expected assets by registered location, for the report's summary: the expected
    /// count of each location was stored when the audit started, and the found and misplaced
    /// are counted from the audit's scans, each looked up as the first scan of an expected entry.
    static func locationTallies(_ db: Database, auditID: AuditID) throws -> [LocationTally] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT l.location, l.expected, ifnull(f.found, 0) AS found, ifnull(f.misplaced, 0) AS misplaced
                FROM audit_location_expected l LEFT JOIN (
                    SELECT e.location, count(*) AS found,
                        sum(CASE WHEN s.location IS NOT NULL AND s.location IS NOT e.location THEN 1 ELSE 0 END) AS misplaced
                    FROM scans s CROSS JOIN audit_expected e ON e.first_scan_id = s.id AND e.audit_id = s.audit_id
                    WHERE s.audit_id = ?1 GROUP BY e.location) f ON f.location IS l.location
                WHERE l.audit_id = ?1 ORDER BY l.location IS NULL, l.location
                """, arguments: [auditID]
        ).map { LocationTally(location: $0["location"], expected: $0["expected"], found: $0["found"], misplaced: $0["misplaced"]) }
    }

    /// The report's columns, in `ReportWriter.columns` order, as text.
    static let reportExpectedSQL = """
        SELECT e.asset_tag, CASE WHEN e.name IS NULL THEN NULL ELSE e.asset_tag END, e.serial_num, e.name, e.model, e.status,
               e.location, e.country, a.asset_type, e.company,
               CASE WHEN e.first_scan_id IS NULL THEN 'missing'
                    WHEN s.location IS NOT NULL AND s.location IS NOT e.location THEN 'misplaced' ELSE 'scanned' END, NULL,
               s.location, strftime('%Y-%m-%dT%H:%M:%SZ', s.scanned_at), CAST(e.scan_count AS TEXT),
               CAST((SELECT count(*) FROM scans v WHERE v.audit_id = e.audit_id AND v.asset_id = e.asset_id AND v.entry_key IS NULL
                     AND v.voided) AS TEXT),
               s.station, s.user, s.source, CASE WHEN s.late THEN strftime('%Y-%m-%dT%H:%M:%SZ', s.recorded_at) END
        FROM audit_expected e LEFT JOIN scans s ON s.id = e.first_scan_id LEFT JOIN assets a ON a.id = e.asset_id
        WHERE e.audit_id = ? ORDER BY e.asset_id
        """

    static let reportUnexpectedSQL = """
        SELECT u.identifier, u.asset_tag, u.serial_num, u.name, u.model, u.status, u.location, u.country, a.asset_type, u.company,
               'unexpected', u.reason, s.location, strftime('%Y-%m-%dT%H:%M:%SZ', s.scanned_at), CAST(u.scan_count AS TEXT),
               CAST((SELECT count(*) FROM scans v WHERE v.audit_id = u.audit_id AND v.entry_key = u.key AND v.voided) AS TEXT),
               s.station, s.user, s.source, CASE WHEN s.late THEN strftime('%Y-%m-%dT%H:%M:%SZ', s.recorded_at) END
        FROM audit_unexpected u JOIN scans s ON s.id = u.first_scan_id LEFT JOIN assets a ON a.id = u.asset_id
        WHERE u.audit_id = ? ORDER BY u.first_scan_id
        """
}
