import Foundation
import GRDB
import InventoryCore

extension SQLiteAuditService {
    /// Reconciles an ended audit in one write transaction. Each action is two set-based
    /// statements whatever the audit's size: its changes are inserted into `asset_history`
    /// (`INSERT … SELECT`, the "from" value read from the asset as it is now), then applied to
    /// the assets from those entries (`UPDATE … FROM`). A preview runs the same statements and
    /// rolls them back, so it lists exactly what an apply would change.
    public func reconcile(_ request: ReconcileRequest) async throws -> ReconcileResult {
        let actions = try request.checkedActions()
        let user = try request.checkedUser()
        let caseSensitive = caseSensitive
        let now = Date()
        let run: @Sendable (Database) throws -> ReconcileResult = { db in
            try Self.reconcile(
                db, auditID: request.auditId, actions: actions, preview: request.preview, user: user, countries: request.countries,
                caseSensitive: caseSensitive, now: now)
        }
        if request.preview { return try await database.rolledBack(run) }
        return try await database.write(run)
    }

    static func reconcile(
        _ db: Database, auditID: AuditID, actions: Set<ReconcileAction>, preview: Bool, user: String, countries: [String]?, caseSensitive: Bool,
        now: Date
    ) throws -> ReconcileResult {
        let audit = try AuditRows.fetchSession(db, id: auditID)
        guard !audit.isActive else { throw InventoryError.auditRunning(auditID) }
        let mark = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM asset_history") ?? 0
        // The entry's own columns, then the action's once-per-audit check: an audit makes each
        // kind of change to an asset at most once, so a second run changes nothing.
        let entry = "?, ?, ?, ?"
        let entryArguments: StatementArguments = [now, auditID, user]
        func notDone(_ action: ReconcileAction, asset column: String) -> String {
            "NOT EXISTS (SELECT 1 FROM asset_history d WHERE d.asset_id = \(column) AND d.audit_id = ? AND d.kind = '\(action.rawValue)')"
        }
        let notFoundLater = ReconcileSQL.notFoundByALaterAudit(asset: "e.asset_id", audit: "e.audit_id")
        var skipped: [ReconcileSkip] = []
        // Changes only the assets of `countries` (the alias `a` is the changed asset); first
        // lists the others that the same selection finds, as skipped.
        func scoped(_ action: ReconcileAction, _ select: (String) -> String, arguments: StatementArguments) throws -> String {
            guard let countries else { return select("1") }
            let marks = countries.map { _ in "?" }.joined(separator: ", ")
            let others = try String.fetchAll(
                db, sql: "SELECT t.asset_tag FROM (\(select("a.country NOT IN (\(marks))"))) k JOIN assets t ON t.id = k.asset_id ORDER BY t.id",
                arguments: arguments + StatementArguments(countries))
            skipped += others.map { ReconcileSkip(assetTag: $0, action: action) }
            return select("a.country IN (\(marks))")
        }
        let scope = countries.map { StatementArguments($0) } ?? []
        for action in actions.sorted() {
            switch action {
            case .moveMisplaced:
                let arguments = entryArguments + [action.rawValue, auditID, auditID]
                let select = try scoped(
                    action,
                    { scope in
                        """
                        SELECT e.asset_id AS asset_id, \(entry), 'location', a.location, s.location
                        FROM audit_expected e JOIN scans s ON s.id = e.first_scan_id JOIN assets a ON a.id = e.asset_id
                        WHERE e.audit_id = ? AND s.location IS NOT NULL AND s.location IS NOT e.location AND a.location IS NOT s.location
                            AND \(notDone(action, asset: "e.asset_id")) AND \(scope)
                        """
                    }, arguments: arguments)
                try db.execute(
                    sql: "INSERT INTO asset_history (asset_id, at, audit_id, user_name, kind, field, from_value, to_value) \(select) ORDER BY 1",
                    arguments: arguments + scope)
                try db.execute(
                    sql: """
                        UPDATE assets SET location = h.to_value, updated_at = ? FROM asset_history h
                        WHERE h.id > ? AND h.kind = ? AND h.asset_id = assets.id
                        """, arguments: [now, mark, action.rawValue])
            case .markMissing:
                let arguments = entryArguments + [action.rawValue, auditID, auditID]
                let select = try scoped(
                    action,
                    { scope in
                        """
                        SELECT e.asset_id AS asset_id, \(entry), 'status', a.status, 'MISSING'
                        FROM audit_expected e JOIN assets a ON a.id = e.asset_id
                        WHERE e.audit_id = ? AND e.first_scan_id IS NULL AND a.status NOT IN ('MISSING', 'ARCHIVED', 'DISPOSED')
                            AND \(notDone(action, asset: "e.asset_id")) AND \(notFoundLater) AND \(scope)
                        """
                    }, arguments: arguments)
                try db.execute(
                    sql: "INSERT INTO asset_history (asset_id, at, audit_id, user_name, kind, field, from_value, to_value) \(select) ORDER BY 1",
                    arguments: arguments + scope)
                try db.execute(
                    sql: """
                        UPDATE assets SET status = 'MISSING', updated_at = ? FROM asset_history h
                        WHERE h.id > ? AND h.kind = ? AND h.asset_id = assets.id
                        """, arguments: [now, mark, action.rawValue])
            case .registerUnknown:
                let maxAsset = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM assets") ?? 0
                let collation = caseSensitive ? "" : " COLLATE NOCASE"
                try db.execute(
                    sql: """
                        INSERT INTO assets (asset_tag, name, status, country, location, notes, is_erased, has_keyboard, has_charger,
                            created_at, updated_at)
                        SELECT u.identifier, u.identifier, ?, ?, s.location, ?, 0, 0, 0, ?, ?
                        FROM audit_unexpected u JOIN scans s ON s.id = u.first_scan_id
                        WHERE u.audit_id = ? AND u.asset_id IS NULL AND u.reason = 'unknown'
                            AND NOT EXISTS (SELECT 1 FROM assets a WHERE a.asset_tag = u.identifier\(collation))
                            AND NOT EXISTS (SELECT 1 FROM assets a WHERE a.serial_num = u.identifier\(collation))
                        ORDER BY u.first_scan_id
                        """,
                    arguments: [Registration.status.rawValue, audit.country, Registration.notes(auditID: auditID), now, now, auditID])
                try db.execute(
                    sql: """
                        INSERT INTO asset_history (asset_id, at, audit_id, user_name, kind, field, from_value, to_value)
                        SELECT a.id, \(entry), 'asset_tag', NULL, a.asset_tag FROM assets a WHERE a.id > ? ORDER BY a.id
                        """, arguments: entryArguments + [action.rawValue, maxAsset])
            case .restoreFound:
                let arguments = entryArguments + [action.rawValue, Registration.status.rawValue, audit.country, auditID, auditID, auditID]
                let select = try scoped(
                    action,
                    { scope in
                        """
                        SELECT a.id AS asset_id, \(entry), 'status', 'MISSING', coalesce(
                            (SELECT m.from_value FROM asset_history m WHERE m.asset_id = a.id AND m.field = 'status'
                                AND m.to_value = 'MISSING' AND m.from_value <> 'MISSING' ORDER BY m.id DESC LIMIT 1), ?)
                        FROM (SELECT a.id FROM assets a WHERE a.country = ? AND a.status = 'MISSING' AND EXISTS (
                                  SELECT 1 FROM audit_expected e WHERE e.audit_id = ? AND e.asset_id = a.id AND e.first_scan_id IS NOT NULL)
                              UNION SELECT u.asset_id FROM audit_unexpected u JOIN assets a ON a.id = u.asset_id
                                  WHERE u.audit_id = ? AND a.status = 'MISSING') f
                            JOIN assets a ON a.id = f.id
                        WHERE \(notDone(action, asset: "a.id")) AND \(scope)
                        """
                    }, arguments: arguments)
                try db.execute(
                    sql: "INSERT INTO asset_history (asset_id, at, audit_id, user_name, kind, field, from_value, to_value) \(select) ORDER BY 1",
                    arguments: arguments + scope)
                try db.execute(
                    sql: """
                        UPDATE assets SET status = h.to_value, updated_at = ? FROM asset_history h
                        WHERE h.id > ? AND h.kind = ? AND h.asset_id = assets.id
                        """, arguments: [now, mark, action.rawValue])
            case .setQuantities:
                break // accessories, after the assets
            }
        }
        var quantities: [ReconcileChange] = []
        if actions.contains(.setQuantities) {
            let set = try AccessoryCounts.setQuantities(db, auditID: auditID, country: audit.country, user: user, countries: countries, now: now)
            quantities = set.changes
            skipped += set.skipped
        }
        return try changesAnswer(db, auditID: auditID, since: mark, actions: actions, preview: preview, skipped: skipped, quantities: quantities)
    }

    /// The answer: the history entries made since `mark`, counted per action, the first
    /// `ReconcileResult.changeLimit` listed.
    private static func changesAnswer(
        _ db: Database, auditID: AuditID, since mark: Int64, actions: Set<ReconcileAction>, preview: Bool, skipped: [ReconcileSkip],
        quantities: [ReconcileChange]
    ) throws -> ReconcileResult {
        var counts: [ReconcileAction: Int] = [.setQuantities: quantities.count]
        for row in try Row.fetchAll(db, sql: "SELECT kind, count(*) AS n FROM asset_history WHERE id > ? GROUP BY kind", arguments: [mark]) {
            if let action = ReconcileAction(rawValue: row["kind"]) { counts[action] = row["n"] }
        }
        let changes = try Row.fetchAll(
            db,
            sql: """
                SELECT h.asset_id, a.asset_tag, h.kind, h.field, h.from_value, h.to_value
                FROM asset_history h JOIN assets a ON a.id = h.asset_id WHERE h.id > ? ORDER BY h.id LIMIT ?
                """, arguments: [mark, ReconcileResult.changeLimit]
        ).map { row in
            let action = ReconcileAction(rawValue: row["kind"]) ?? .moveMisplaced
            return ReconcileChange(
                assetId: preview && action == .registerUnknown ? nil : row["asset_id"], assetTag: row["asset_tag"], action: action,
                field: row["field"], from: row["from_value"], to: row["to_value"])
        }
        return ReconcileResult(
            auditId: auditID, preview: preview, actions: actions, counts: counts, changes: changes + quantities, skipped: skipped)
    }
}

extension SQLiteAssetService {
    public func history(assetID: Int64, query: ListQuery) async throws -> Page<AssetHistoryEntry> {
        try await database.read { db in
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM assets WHERE id = ?)", arguments: [assetID]) == true else {
                throw InventoryError.notFound("asset \(assetID)")
            }
            let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM asset_history WHERE asset_id = ?", arguments: [assetID]) ?? 0
            let items = try Row.fetchAll(
                db, sql: "SELECT * FROM asset_history WHERE asset_id = ? ORDER BY id LIMIT ? OFFSET ?",
                arguments: [assetID, query.perPage, query.offset]
            ).map { row in
                AssetHistoryEntry(
                    id: row["id"], assetId: row["asset_id"], at: row["at"], field: row["field"], from: row["from_value"], to: row["to_value"],
                    auditId: row["audit_id"], user: row["user_name"], kind: row["kind"])
            }
            return Page(items: items, pagination: Pagination(query: query, total: total))
        }
    }

    /// Records the fields an edit changed in the asset's history, in the edit's transaction.
    static func recordEdit(_ db: Database, before: Asset, after: Asset, kind: String = AssetHistoryEntry.editKind) throws {
        for change in AssetHistoryEntry.editedFields(before, after) {
            try db.execute(
                sql: """
                    INSERT INTO asset_history (asset_id, at, audit_id, user_name, kind, field, from_value, to_value)
                    VALUES (?, ?, NULL, 'unknown', ?, ?, ?, ?)
                    """, arguments: [after.id, after.updatedAt, kind, change.field, change.from, change.to])
        }
    }
}

/// The audit a scan found that a reconciliation had marked `MISSING`: the audit of the asset's
/// latest mark, read only for an asset recorded as `MISSING` (one indexed lookup).
enum MissingMark {
    static func audit(_ db: Database, assetID: Int64?, status: AssetStatus?) throws -> AuditID? {
        guard let assetID, status == .missing else { return nil }
        return try String.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT audit_id FROM asset_history WHERE asset_id = ? AND field = 'status' AND to_value = 'MISSING' AND audit_id IS NOT NULL
                    ORDER BY id DESC LIMIT 1
                    """), arguments: [assetID])
    }
}
