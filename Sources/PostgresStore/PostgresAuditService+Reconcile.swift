import Foundation
import InventoryCore
import PostgresNIO

extension PostgresAuditService {
    /// Reconciles an ended audit in one transaction that first locks the audit's row, so two
    /// reconciliations of one audit take turns (the second finds the first's history and
    /// changes nothing). Each action is one set-based statement: a data-modifying `WITH` that
    /// inserts the changes into `asset_history` (the "from" value read from the asset as it is
    /// now) and applies them to the assets (`SQLiteAuditService.reconcile` is the same on
    /// SQLite). A preview runs the same statements and rolls them back.
    public func reconcile(_ request: ReconcileRequest) async throws -> ReconcileResult {
        let actions = try request.checkedActions()
        let user = try request.checkedUser()
        let caseSensitive = caseSensitive
        let now = Date()
        let run: (PostgresConnection) async throws -> ReconcileResult = { c in
            try await Self.reconcile(
                c, auditID: request.auditId, actions: actions, preview: request.preview, user: user, countries: request.countries,
                caseSensitive: caseSensitive, now: now)
        }
        if request.preview { return try await database.rolledBack(run) }
        return try await database.transaction(.readCommitted, run)
    }

    static func reconcile(
        _ c: PostgresConnection, auditID: AuditID, actions: Set<ReconcileAction>, preview: Bool, user: String, countries: [String]?,
        caseSensitive: Bool, now: Date
    ) async throws -> ReconcileResult {
        guard let locked = try await c.row("SELECT country, ended_at FROM audits WHERE id = \(auditID) FOR UPDATE") else {
            throw InventoryError.notFound("audit \(auditID)")
        }
        guard try locked.get("ended_at", as: Date?.self) != nil else { throw InventoryError.auditRunning(auditID) }
        let country: String = try locked.get("country")
        let mark = try await c.row("SELECT coalesce(max(id), 0) AS mark FROM asset_history")?.get("mark", as: Int64.self) ?? 0
        var skipped: [ReconcileSkip] = []
        for action in actions.sorted() {
            let kind = action.rawValue
            // An audit makes each kind of change to an asset at most once: a second run changes nothing.
            let notDone: (String) -> String = { column in
                "NOT EXISTS (SELECT 1 FROM asset_history d WHERE d.asset_id = \(column) AND d.audit_id = $1 AND d.kind = $4)"
            }
            var binds = PostgresBindings()
            binds.append(auditID)
            binds.append(now)
            binds.append(user)
            binds.append(kind)
            let entry = "$2, $1, $3, $4"
            // Changes only the assets of `countries` (the alias `a` is the changed asset); first
            // lists the others that the same selection finds, as skipped.
            func scoped(_ select: (String) -> String) async throws -> String {
                guard let countries else { return select("true") }
                binds.append(countries)
                let others = try await c.rows(
                    PostgresQuery(
                        unsafeSQL:
                            "SELECT t.asset_tag FROM (\(select("NOT (a.country = ANY($\(binds.count)))"))) k JOIN assets t ON t.id = k.asset_id ORDER BY t.id",
                        binds: binds))
                for row in others { skipped.append(ReconcileSkip(assetTag: try row.get("asset_tag"), action: action)) }
                return select("a.country = ANY($\(binds.count))")
            }
            let sql: String
            switch action {
            case .moveMisplaced:
                let select = try await scoped { scope in
                    """
                    SELECT e.asset_id AS asset_id, \(entry), 'location', a.location, s.location
                    FROM audit_expected e JOIN scans s ON s.id = e.first_scan_id JOIN assets a ON a.id = e.asset_id
                    WHERE e.audit_id = $1 AND s.location IS NOT NULL AND s.location IS DISTINCT FROM e.location
                        AND a.location IS DISTINCT FROM s.location AND \(notDone("e.asset_id")) AND \(scope)
                    """
                }
                sql = """
                    WITH changes AS (
                        INSERT INTO asset_history (asset_id, at, audit_id, user_name, kind, field, from_value, to_value)
                        \(select)
                        ORDER BY 1
                        RETURNING asset_id, to_value)
                    UPDATE assets SET location = changes.to_value, updated_at = $2 FROM changes WHERE assets.id = changes.asset_id
                    """
            case .markMissing:
                let select = try await scoped { scope in
                    """
                    SELECT e.asset_id AS asset_id, \(entry), 'status', a.status, 'MISSING'
                    FROM audit_expected e JOIN assets a ON a.id = e.asset_id
                    WHERE e.audit_id = $1 AND e.first_scan_id IS NULL AND a.status NOT IN ('MISSING', 'ARCHIVED', 'DISPOSED')
                        AND \(notDone("e.asset_id"))
                        AND \(ReconcileSQL.notFoundByALaterAudit(asset: "e.asset_id", audit: "e.audit_id")) AND \(scope)
                    """
                }
                sql = """
                    WITH changes AS (
                        INSERT INTO asset_history (asset_id, at, audit_id, user_name, kind, field, from_value, to_value)
                        \(select)
                        ORDER BY 1
                        RETURNING asset_id)
                    UPDATE assets SET status = 'MISSING', updated_at = $2 FROM changes WHERE assets.id = changes.asset_id
                    """
            case .registerUnknown:
                let match = { (column: String) in caseSensitive ? "\(column) = u.identifier" : PGFold.match(column, "u.identifier") }
                binds.append(country)
                binds.append(Registration.status.rawValue)
                binds.append(Registration.notes(auditID: auditID))
                sql = """
                    WITH registered AS (
                        INSERT INTO assets (asset_tag, name, status, country, location, notes, is_erased, has_keyboard, has_charger,
                            created_at, updated_at)
                        SELECT u.identifier, u.identifier, $6, $5, s.location, $7, false, false, false, $2, $2
                        FROM audit_unexpected u JOIN scans s ON s.id = u.first_scan_id
                        WHERE u.audit_id = $1 AND u.asset_id IS NULL AND u.reason = 'unknown'
                            AND NOT EXISTS (SELECT 1 FROM assets a WHERE \(match("a.asset_tag")))
                            AND NOT EXISTS (SELECT 1 FROM assets a WHERE \(match("a.serial_num")))
                        ORDER BY u.first_scan_id
                        RETURNING id, asset_tag)
                    INSERT INTO asset_history (asset_id, at, audit_id, user_name, kind, field, from_value, to_value)
                    SELECT r.id, \(entry), 'asset_tag', NULL, r.asset_tag FROM registered r ORDER BY r.id
                    """
            case .restoreFound:
                // The unexpected entries are few: the assets are read by id from them. (A plain
                // `a.status = 'MISSING'` there lets the planner start from the status index
                // when its statistics still say no asset is MISSING, and then scan the entries
                // once per MISSING asset: 190 s for 50,000 of them.)
                binds.append(Registration.status.rawValue)
                binds.append(country)
                let select = try await scoped { scope in
                    """
                    SELECT a.id AS asset_id, \(entry), 'status', 'MISSING', coalesce(
                        (SELECT m.from_value FROM asset_history m WHERE m.asset_id = a.id AND m.field = 'status'
                            AND m.to_value = 'MISSING' AND m.from_value <> 'MISSING' ORDER BY m.id DESC LIMIT 1), $5)
                    FROM (SELECT a.id FROM assets a WHERE a.country = $6 AND a.status = 'MISSING' AND EXISTS (
                              SELECT 1 FROM audit_expected e WHERE e.audit_id = $1 AND e.asset_id = a.id AND e.first_scan_id IS NOT NULL)
                          UNION SELECT u.asset_id FROM audit_unexpected u JOIN assets a ON a.id = u.asset_id
                              WHERE u.audit_id = $1 AND (a.status || '') = 'MISSING') f
                        JOIN assets a ON a.id = f.id
                    WHERE \(notDone("a.id")) AND \(scope)
                    """
                }
                sql = """
                    WITH changes AS (
                        INSERT INTO asset_history (asset_id, at, audit_id, user_name, kind, field, from_value, to_value)
                        \(select)
                        ORDER BY 1
                        RETURNING asset_id, to_value)
                    UPDATE assets SET status = changes.to_value, updated_at = $2 FROM changes WHERE assets.id = changes.asset_id
                    """
            case .setQuantities:
                continue // accessories, after the assets
            }
            try await c.run(PostgresQuery(unsafeSQL: sql, binds: binds))
        }
        var quantities: [ReconcileChange] = []
        if actions.contains(.setQuantities) {
            let set = try await PGAccessoryCounts.setQuantities(c, auditID: auditID, country: country, user: user, countries: countries, now: now)
            quantities = set.changes
            skipped += set.skipped
        }
        var counts: [ReconcileAction: Int] = [.setQuantities: quantities.count]
        for row in try await c.rows(
            "SELECT kind, count(*) AS n FROM asset_history WHERE id > \(mark) AND audit_id = \(auditID) GROUP BY kind")
        {
            if let action = ReconcileAction(rawValue: try row.get("kind")) { counts[action] = try row.get("n", as: Int.self) }
        }
        let changes = try await c.rows(
            """
            SELECT h.asset_id, a.asset_tag, h.kind, h.field, h.from_value, h.to_value
            FROM asset_history h JOIN assets a ON a.id = h.asset_id WHERE h.id > \(mark) AND h.audit_id = \(auditID)
            ORDER BY h.id LIMIT \(ReconcileResult.changeLimit)
            """
        ).map { row in
            let action = ReconcileAction(rawValue: try row.get("kind")) ?? .moveMisplaced
            return ReconcileChange(
                assetId: preview && action == .registerUnknown ? nil : try row.get("asset_id", as: Int64.self), assetTag: try row.get("asset_tag"),
                action: action, field: try row.get("field"), from: try row.get("from_value"), to: try row.get("to_value"))
        }
        return ReconcileResult(
            auditId: auditID, preview: preview, actions: actions, counts: counts, changes: changes + quantities, skipped: skipped)
    }
}

extension PostgresAssetService {
    public func history(assetID: Int64, query: ListQuery) async throws -> Page<AssetHistoryEntry> {
        try await database.read { c in
            guard try await c.row("SELECT 1 FROM assets WHERE id = \(assetID)") != nil else { throw InventoryError.notFound("asset \(assetID)") }
            let total = try await c.row("SELECT count(*) AS n FROM asset_history WHERE asset_id = \(assetID)")?.get("n", as: Int.self) ?? 0
            let items = try await c.rows(
                """
                SELECT id, asset_id, at, field, from_value, to_value, audit_id, user_name, kind FROM asset_history
                WHERE asset_id = \(assetID) ORDER BY id LIMIT \(query.perPage) OFFSET \(query.offset)
                """
            ).map { row in
                AssetHistoryEntry(
                    id: try row.get("id"), assetId: try row.get("asset_id"), at: try row.get("at"), field: try row.get("field"),
                    from: try row.get("from_value"), to: try row.get("to_value"), auditId: try row.get("audit_id"),
                    user: try row.get("user_name"), kind: try row.get("kind"))
            }
            return Page(items: items, pagination: Pagination(query: query, total: total))
        }
    }

    /// Records the fields an edit changed in the asset's history, in the edit's transaction.
    static func recordEdit(_ c: PostgresConnection, before: Asset, after: Asset, kind: String = AssetHistoryEntry.editKind) async throws {
        for change in AssetHistoryEntry.editedFields(before, after) {
            try await c.run(
                """
                INSERT INTO asset_history (asset_id, at, audit_id, user_name, kind, field, from_value, to_value)
                VALUES (\(after.id), \(after.updatedAt), NULL, 'unknown', \(kind), \(change.field), \(change.from), \(change.to))
                """)
        }
    }
}

/// The audit whose reconciliation marked an asset `MISSING` (`MissingMark` on SQLite), read
/// only for an asset recorded as `MISSING`.
enum PGMissingMark {
    static func audit(_ c: PostgresConnection, assetID: Int64?, status: AssetStatus?) async throws -> AuditID? {
        guard let assetID, status == .missing else { return nil }
        return try await c.row(
            """
            SELECT audit_id FROM asset_history WHERE asset_id = \(assetID) AND field = 'status' AND to_value = 'MISSING'
                AND audit_id IS NOT NULL ORDER BY id DESC LIMIT 1
            """)?.get("audit_id", as: String.self)
    }
}
