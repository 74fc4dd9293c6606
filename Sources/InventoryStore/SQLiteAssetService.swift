import Foundation
import GRDB
import InventoryCore

/// Assets over the station's SQLite file.
public struct SQLiteAssetService: AssetService {
    let database: AppDatabase
    /// With tags matched case-insensitively, tags (and serials) that differ only in case are one
    /// identifier, so the inventory may not hold both.
    let caseSensitive: Bool
    /// Whether an import starts indexing its rows for search once it has committed
    /// (`startSearchCatchUp`); a test turns it off to see the rows before they are indexed.
    let searchCatchUp: Bool

    public init(database: AppDatabase, caseSensitive: Bool = true, searchCatchUp: Bool = true) {
        self.database = database
        self.caseSensitive = caseSensitive
        self.searchCatchUp = searchCatchUp
    }

    /// The collation that decides whether two identifiers are the same. SQLite's NOCASE folds
    /// ASCII letters only, as the audit's matching does.
    var identifierCollation: String { caseSensitive ? "" : " COLLATE NOCASE" }

    public func list(_ filter: AssetFilter, query: ListQuery) async throws -> Page<Asset> {
        try await database.read { db in
            var clauses: [String] = []
            var arguments: StatementArguments = []
            if let status = filter.status {
                clauses.append("assets.status = ?")
                arguments += [status.rawValue]
            }
            if let country = filter.country {
                clauses.append("assets.country = ?")
                arguments += [try Country.normalize(country)]
            }
            if let customerId = filter.customerId {
                clauses.append("assets.customer_id = ?")
                arguments += [customerId]
            }
            if let countries = filter.countries {
                clauses.append("assets.country IN (" + (["''"] + countries.map { _ in "?" }).joined(separator: ", ") + ")")
                arguments += StatementArguments(countries)
            }
            var order = " ORDER BY assets.id"
            if let cutoff = filter.notAuditedSince {
                let notSince = try LastAudited.notSince(db, cutoff: cutoff)
                clauses.append(notSince.clause)
                arguments += notSince.arguments
                order = notSince.order
            }
            let from = LastAudited.table(for: filter)
            let select = Asset.selectSQL.replacingOccurrences(of: "FROM assets ", with: "FROM \(from) ")
            if let search = query.search {
                // Texts of 3 or more characters take their candidates from the search index
                // (these four fields only: the assets' search does not read the location); the
                // `LIKE` below then keeps exactly the rows it kept before. Shorter texts read
                // every asset.
                if let index = try AssetSearchIndex.candidates(db, search, columns: ["asset_tag", "serial_num", "name", "model"]) {
                    clauses.append("assets.id IN " + index.sql)
                    arguments += [index.argument]
                }
                clauses.append(
                    "(assets.asset_tag LIKE ? ESCAPE '\\' OR assets.serial_num LIKE ? ESCAPE '\\' OR assets.name LIKE ? ESCAPE '\\' OR assets.model LIKE ? ESCAPE '\\')"
                )
                let pattern = likePattern(search)
                arguments += [pattern, pattern, pattern, pattern]
            }
            let whereSQL = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
            if query.search != nil {
                // A search reads the matching ids once, in order: they give the total and the
                // page, whose rows are then read by id.
                let ids = try Int64.fetchAll(db, sql: "SELECT assets.id FROM \(from)" + whereSQL + order, arguments: arguments)
                let page = Array(ids.dropFirst(query.offset).prefix(query.perPage))
                let found =
                    page.isEmpty
                    ? []
                    : try Asset.fetchAll(
                        db, sql: Asset.selectSQL + " WHERE assets.id IN (\(page.map { _ in "?" }.joined(separator: ", ")))",
                        arguments: StatementArguments(page))
                let byID = Dictionary(uniqueKeysWithValues: found.map { ($0.id, $0) })
                let items = page.compactMap { byID[$0] }
                return Page(items: items, pagination: Pagination(query: query, total: ids.count))
            }
            let total = try db.count(sql: "SELECT assets.id FROM \(from)" + whereSQL, arguments: arguments)
            let items = try Asset.fetchAll(
                db, sql: select + whereSQL + order + " LIMIT ? OFFSET ?",
                arguments: arguments + [query.perPage, query.offset])
            return Page(items: items, pagination: Pagination(query: query, total: total))
        }
    }

    public func get(id: Int64) async throws -> Asset {
        try await database.read { db in try Self.fetch(db, id: id) }
    }

    static func fetch(_ db: Database, id: Int64) throws -> Asset {
        guard let asset = try Asset.fetchOne(db, sql: Asset.selectSQL + " WHERE assets.id = ?", arguments: [id]) else {
            throw InventoryError.notFound("asset \(id)")
        }
        return asset
    }

    public func find(identifier: String) async throws -> Asset? {
        let key = try Identifier.normalize(identifier)
        return try await database.read { db in
            try Asset.fetchOne(db, sql: Asset.selectSQL + " WHERE assets.asset_tag = ?", arguments: [key])
                ?? Asset.fetchOne(db, sql: Asset.selectSQL + " WHERE assets.serial_num = ?", arguments: [key])
        }
    }

    public func create(_ input: AssetInput) async throws -> Asset {
        let newAsset = try checked { try input.makeAsset() }
        return try await database.write { db in
            var asset = newAsset
            try checkUnique(db, asset)
            try Self.checkCustomer(db, asset.customerId)
            try asset.insert(db)
            return try Self.fetch(db, id: asset.id)
        }
    }

    public func update(id: Int64, _ input: AssetInput) async throws -> Asset {
        try await database.write { db in
            let before = try Self.fetch(db, id: id)
            var asset = before
            try input.apply(to: &asset)
            try checkUnique(db, asset)
            try Self.checkCustomer(db, asset.customerId)
            try asset.update(db)
            try Self.recordEdit(db, before: before, after: asset)
            return try Self.fetch(db, id: id)
        }
    }

    public func delete(id: Int64, mode: DeleteMode) async throws -> Asset? {
        try await database.write { db in
            var asset = try Self.fetch(db, id: id)
            switch mode {
            case .archive:
                let before = asset
                asset.status = .archived
                asset.updatedAt = Date()
                try asset.update(db)
                try Self.recordEdit(db, before: before, after: asset)
                return asset
            case .delete:
                let running = try String.fetchOne(
                    db,
                    sql: """
                        SELECT audits.country FROM audit_expected JOIN audits ON audits.id = audit_expected.audit_id
                        WHERE audits.ended_at IS NULL AND audit_expected.asset_id = ?
                        """, arguments: [id])
                if let running {
                    throw InventoryError.inUse(
                        "Asset \(asset.assetTag) is expected by the running audit of \(running); archive it instead, or delete it after the audit ends"
                    )
                }
                try db.execute(sql: "DELETE FROM assets WHERE id = ?", arguments: [id])
                return nil
            }
        }
    }

    public func transfer(id: Int64, _ request: TransferRequest) async throws -> Asset {
        let (reason, notes) = try request.checkedText()
        return try await database.write { db in
            var asset = try Self.fetch(db, id: id)
            try Self.checkCustomer(db, request.customerId)
            try db.execute(
                sql: """
                    INSERT INTO asset_transfers (asset_id, from_customer_id, to_customer_id, reason, notes, effective_date, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [id, asset.customerId, request.customerId, reason, notes, request.effectiveDate, Date()])
            let before = asset
            asset.customerId = request.customerId
            asset.updatedAt = Date()
            try asset.update(db)
            try Self.recordEdit(db, before: before, after: asset, kind: AssetHistoryEntry.transferKind)
            return try Self.fetch(db, id: id)
        }
    }

    func checkUnique(_ db: Database, _ asset: Asset) throws {
        let collation = identifierCollation
        if try Int64.fetchOne(db, sql: "SELECT id FROM assets WHERE asset_tag = ?\(collation) AND id <> ?", arguments: [asset.assetTag, asset.id])
            != nil
        {
            throw InventoryError.duplicate(field: "asset_tag", value: asset.assetTag)
        }
        if let serial = asset.serialNum,
            try Int64.fetchOne(db, sql: "SELECT id FROM assets WHERE serial_num = ?\(collation) AND id <> ?", arguments: [serial, asset.id]) != nil
        {
            throw InventoryError.duplicate(field: "serial_num", value: serial)
        }
        try AccessoryTags.checkAsset(db, asset)
    }

    static func checkCustomer(_ db: Database, _ customerId: Int64?) throws {
        guard let customerId else { return }
        if try !Bool(Int.fetchOne(db, sql: "SELECT count(*) FROM customers WHERE id = ?", arguments: [customerId]) == 1) {
            throw InventoryError.invalid(ValidationError(field: "customer_id", message: "\(customerId) is not a customer"))
        }
    }
}
