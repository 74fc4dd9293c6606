import Foundation
import GRDB
import InventoryCore

/// Row mappings, one per table. Column names are the API's snake_case names.
extension Asset: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "assets"

    /// Selects the asset columns plus the assigned customer's name, and the part of its
    /// `last_audited_at` that an ended audit's catch-up has not written yet (`LastAudited`).
    static let selectSQL =
        "SELECT assets.*, customers.name AS customer, \(LastAudited.pendingColumn) FROM assets LEFT JOIN customers ON customers.id = assets.customer_id"

    /// Fields are read from the columns of their names in snake case, as in the PostgreSQL store.
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase

    /// The asset from its row, with the later of its stored and pending `last_audited_at`.
    public init(row: Row) throws {
        self = try FetchableRecordDecoder().decode(Asset.self, from: row)
        takeAudited(pending: row.hasColumn("pending_audited_at") ? row["pending_audited_at"] : nil)
    }

    public func encode(to container: inout PersistenceContainer) throws {
        if id != 0 { container["id"] = id }
        container.set([
            "asset_tag": assetTag, "serial_num": serialNum, "name": name, "model": model, "status": status.rawValue,
            "condition": condition?.rawValue, "manufacturer": manufacturer, "asset_type": assetType, "cpu_type": cpuType,
            "cpu_cores": cpuCores, "memory": memory, "harddrive": harddrive, "country": country, "location": location, "company": company,
            "customer_id": customerId, "notes": notes, "tech_notes": techNotes, "is_erased": isErased, "has_keyboard": hasKeyboard,
            "has_charger": hasCharger, "created_at": createdAt, "updated_at": updatedAt
        ])
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension AssetBrief {
    /// Reads the brief from a row that selected `assets.*` (or the same columns).
    package init(row: Row) {
        self.init(
            id: row["id"], assetTag: row["asset_tag"], serialNum: row["serial_num"], name: row["name"],
            model: row["model"], status: AssetStatus(rawValue: row["status"]) ?? .inStock,
            location: row["location"], company: row["company"], country: row["country"])
    }
}

extension Customer: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "customers"

    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase

    public func encode(to container: inout PersistenceContainer) throws {
        if id != 0 { container["id"] = id }
        container.set([
            "name": name, "contact_number": contactNumber, "address": address, "country": country, "email": email, "company_id": companyId,
            "created_at": createdAt, "updated_at": updatedAt
        ])
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension Accessory: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "accessories"

    /// Selects the accessory columns plus the quantity customers hold.
    static let selectSQL = """
        SELECT accessories.*, accessories.total_quantity - COALESCE((SELECT SUM(quantity) FROM accessory_holdings h
            WHERE h.accessory_id = accessories.id), 0) AS available_quantity FROM accessories
        """

    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase

    public func encode(to container: inout PersistenceContainer) throws {
        if id != 0 { container["id"] = id }
        container.set([
            "name": name, "category": category, "manufacturer": manufacturer, "model_no": modelNo, "total_quantity": totalQuantity,
            "country": country, "notes": notes, "image_url": imageUrl, "company_id": companyId, "created_at": createdAt,
            "updated_at": updatedAt, "tag": tag, "location": location
        ])
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

extension PersistenceContainer {
    /// Sets columns from (name, value) pairs, in order: a table's mapping reads as one list.
    mutating func set(_ columns: KeyValuePairs<String, (any DatabaseValueConvertible)?>) {
        for (column, value) in columns { self[column] = value }
    }
}

extension Database {
    /// `count(*)` of a query, for pagination.
    func count(sql: String, arguments: StatementArguments) throws -> Int {
        try Int.fetchOne(self, sql: "SELECT count(*) FROM (\(sql))", arguments: arguments) ?? 0
    }
}

/// `LIKE` pattern for a free-text search, with the wildcards in the text escaped.
func likePattern(_ search: String) -> String {
    "%"
        + search.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
        .replacingOccurrences(of: "_", with: "\\_") + "%"
}

/// The assets' search index (`assets_fts`, FTS5 with the trigram tokenizer; see
/// `Schema.assetsSearch`), which finds the assets whose fields contain a text of 3 or more
/// characters without reading every asset.
enum AssetSearchIndex {
    /// The fewest characters (Unicode scalars, as the tokenizer counts them) the index can
    /// serve: a shorter text holds no trigram, and is searched by reading the rows.
    static let shortest = 3

    /// The ids of the assets whose fields (the `columns` given, or all five: tag, serial, name,
    /// model, location) may contain `search`, case folded, as an `IN` list for a query's `WHERE`
    /// (a JSON array read by `json_each`, one argument); nil when the text is too short for the
    /// index. The text is one FTS5 string (its quotes doubled), so nothing in it is FTS5 syntax,
    /// and `%`, `_` and `\` are plain characters. The ids are a superset of what `LIKE` keeps
    /// (the index folds case beyond ASCII, and may be asked for part of the text): the caller
    /// keeps its `LIKE` on the rows.
    ///
    /// A text longer than `narrowLength` is first looked up by its last `narrowLength`
    /// characters. FTS5 reads the whole list of every trigram of a phrase, and the start of a tag
    /// or serial is mostly trigrams that every asset holds (`AT-`, `T-0`, `-00`): with 1,000,000
    /// assets the tag `AT-00999993` took 23 ms as a whole, its last six characters 1 ms. When the
    /// tail is held by more than `narrowLimit` assets the whole text is looked up instead.
    ///
    /// Also nil when more than `commonLimit` assets hold the text (a word like "Laptop" in a
    /// million assets): then the index hands back most of the table one id at a time, which is
    /// slower than reading the rows (1.06 s against 0.25 s of CPU for 1,000,000 assets), so the
    /// caller reads the rows. The ids are read once, at most one more than the limit.
    static func candidates(_ db: Database, _ search: String, columns: [String]? = nil) throws -> (sql: String, argument: String)? {
        guard search.unicodeScalars.count >= shortest, try isComplete(db) else { return nil }
        let scope = columns.map { "{" + $0.joined(separator: " ") + "} : " } ?? ""
        func phrase(_ text: String) -> String { scope + "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        func ids(_ query: String, limit: Int) throws -> [Int64]? {
            let found = try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT rowid FROM assets_fts WHERE assets_fts MATCH ? LIMIT ?"), arguments: [query, limit + 1])
            return found.count > limit ? nil : found
        }
        let scalars = search.unicodeScalars
        var found: [Int64]?
        if scalars.count > narrowLength {
            var tail = String.UnicodeScalarView()
            tail.append(contentsOf: scalars.suffix(narrowLength))
            found = try ids(phrase(String(tail)), limit: narrowLimit)
        }
        if found == nil { found = try ids(phrase(search), limit: commonLimit) }
        guard let found else { return nil }
        return ("(SELECT value FROM json_each(?))", "[" + found.map(String.init).joined(separator: ",") + "]")
    }

    /// The characters at the end of a longer text that are looked up first.
    static let narrowLength = 6
    /// The most assets the end of a text may be held by for its ids to be used.
    static let narrowLimit = 2_000
    /// The most assets a text may be held by for the index to serve its search.
    static let commonLimit = 50_000

    /// Whether the index holds every asset: not while an import's rows wait for `catchUp`.
    static func isComplete(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT NOT EXISTS (SELECT 1 FROM assets_fts_paused)")) ?? true
    }

    /// Rows a catch-up indexes in one write transaction: about 0.3 s of a 2-core machine, so a
    /// scan waits no longer than that for the writer.
    package static let catchUpChunk = 10_000

    /// Indexes the next `chunk` ids of the rows an import left out (from the pause's `since_id`),
    /// and moves the pause on; the last chunk, reaching the highest id, ends the pause in the
    /// same transaction, so an asset created meanwhile (its insert trigger is paused too) is
    /// indexed by it. Rows edited or deleted while paused are read as they are now (their
    /// triggers leave rows above the pause alone). Whether rows remain.
    package static func catchUp(_ db: Database, chunk: Int) throws -> Bool {
        guard let since = try Int64.fetchOne(db, sql: "SELECT min(since_id) FROM assets_fts_paused") else { return false }
        let last = try Int64.fetchOne(db, sql: "SELECT coalesce(max(id), 0) FROM assets") ?? 0
        let end = since + Int64(chunk)
        try db.execute(
            sql: """
                INSERT INTO assets_fts (rowid, asset_tag, serial_num, name, model, location)
                    SELECT id, asset_tag, serial_num, name, model, location FROM assets WHERE id >= ? AND id < ? ORDER BY id
                """, arguments: [since, end])
        guard end <= last else {
            try db.execute(sql: "DELETE FROM assets_fts_paused")
            return false
        }
        try db.execute(sql: "UPDATE assets_fts_paused SET since_id = ?", arguments: [end])
        return true
    }
}
