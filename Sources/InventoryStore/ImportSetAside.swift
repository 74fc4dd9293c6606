import GRDB

/// What an import sets aside inside its transaction and puts back before its commit, so that
/// SQLite does per row only the work that finds a bad row. A rollback (any bad row, a failed
/// stream) undoes the set-aside with the rows: the schema stays as it was.
///
/// - The search index's insert trigger, which cost about 40% of the import even when its
///   condition was false (the import's rows wait for `AssetSearchIndex.catchUp` instead).
/// - Into an empty table only: the assets' non-unique indexes (country, location, customer,
///   last audited, the case-folding ones), each built again by one `CREATE INDEX`, which sorts
///   the rows once instead of a million B-tree inserts a row in key order. Into a table that
///   already holds rows the indexes stay, since building them again would sort the whole
///   inventory for what may be a few rows. The unique indexes always stay: they find a repeated
///   tag or serial. With case-insensitive tags the case-folding indexes stay too, as each row is
///   looked up through them.
/// - The CHECK constraints of the import's own INSERT (`PRAGMA ignore_check_constraints`):
///   every row was checked by `AssetInput.makeAsset` first (a known status and condition, an
///   ISO country in upper case, a tag that is not empty), and SQLite builds a temporary table
///   for each `IN (...)` list of a CHECK at every execution, which cost about a third of the
///   import's time. NOT NULL, UNIQUE and foreign keys are still enforced. Statements prepared
///   meanwhile skip CHECKs, so the flag is on only while the import's own statements are
///   prepared and run, and SQLite prepares every statement again once it is turned off.
struct ImportSetAside {
    /// The SQL that puts back what was set aside, in order.
    private let restoring: [String]

    /// The insert trigger of the search index, set aside by every import.
    static let searchTrigger = "assets_fts_insert"
    /// The indexes a case-insensitive import looks rows up through.
    static let caseFoldingIndexes: Set<String> = ["assets_tag_nocase", "assets_serial_nocase"]

    init(_ db: Database, caseSensitive: Bool) throws {
        var restoring: [String] = []
        if try Row.fetchOne(db, sql: "SELECT 1 FROM assets LIMIT 1") == nil {
            let indexes = try Row.fetchAll(
                db,
                sql: """
                    SELECT name, sql FROM sqlite_master
                    WHERE type = 'index' AND tbl_name = 'assets' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%'
                    ORDER BY name
                    """)
            for index in indexes {
                let name: String = index["name"]
                guard caseSensitive || !Self.caseFoldingIndexes.contains(name) else { continue }
                try db.execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
                restoring.append(index["sql"])
            }
        }
        let trigger = try String.fetchOne(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?", arguments: [Self.searchTrigger])
        if let trigger {
            try db.execute(sql: "DROP TRIGGER \(Self.searchTrigger)")
            restoring.append(trigger)
        }
        self.restoring = restoring
    }

    /// Builds the indexes again and puts the trigger back, inside the import's transaction.
    func restore(_ db: Database) throws {
        for sql in restoring { try db.execute(sql: sql) }
    }

    /// Runs `body` with the CHECK constraints off for what it prepares, and on again after,
    /// whether it returns or throws.
    static func withoutChecks<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
        let result: T
        do {
            result = try body()
        } catch {
            try? db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
            throw error
        }
        try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
        return result
    }
}
