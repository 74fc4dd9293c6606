import Foundation
import InventoryCore
import PostgresNIO

/// Assets over PostgreSQL, with the SQLite store's checks and errors.
public struct PostgresAssetService: AssetService {
    let database: PostgresDatabase
    /// With tags matched case-insensitively, tags (and serials) that differ only in ASCII case
    /// are one identifier, so the inventory may not hold both.
    let caseSensitive: Bool

    public init(database: PostgresDatabase, caseSensitive: Bool = true) {
        self.database = database
        self.caseSensitive = caseSensitive
    }

    public func list(_ filter: AssetFilter, query: ListQuery) async throws -> Page<Asset> {
        let country = try checked { try filter.country.map { try Country.normalize($0) } }
        return try await database.read { c in
            var clauses: [String] = []
            var binds = Binds()
            if let status = filter.status { clauses.append("assets.status = \(binds.add(status.rawValue))") }
            if let country { clauses.append("assets.country = \(binds.add(country))") }
            if let customerId = filter.customerId { clauses.append("assets.customer_id = \(binds.add(customerId))") }
            if let countries = filter.countries {
                clauses.append("assets.country IN (" + (["''"] + countries.map { binds.add($0) }).joined(separator: ", ") + ")")
            }
            var order = " ORDER BY assets.id"
            if let cutoff = filter.notAuditedSince {
                let notSince = try await PGLastAudited.notSince(c, cutoff: binds.add(cutoff))
                clauses.append(notSince.clause)
                order = notSince.order
            }
            if let search = query.search {
                let p = binds.add(likePattern(search))
                clauses.append("(assets.asset_tag ILIKE \(p) OR assets.serial_num ILIKE \(p) OR assets.name ILIKE \(p) OR assets.model ILIKE \(p))")
            }
            let whereSQL = clauses.isEmpty ? "" : " WHERE " + clauses.joined(separator: " AND ")
            let total = try await c.count("SELECT assets.id FROM assets" + whereSQL, binds.bindings)
            let limit = binds.add(query.perPage), offset = binds.add(query.offset)
            let items = try await c.rows(
                PostgresQuery(
                    unsafeSQL: PGRows.assetSQL + whereSQL + order + " LIMIT \(limit) OFFSET \(offset)",
                    binds: binds.bindings)
            ).map(PGRows.asset)
            return Page(items: items, pagination: Pagination(query: query, total: total))
        }
    }

    public func get(id: Int64) async throws -> Asset {
        try await database.read { c in try await Self.fetch(c, id: id) }
    }

    static func fetch(_ c: PostgresConnection, id: Int64) async throws -> Asset {
        var binds = PostgresBindings()
        binds.append(id)
        guard let row = try await c.row(PostgresQuery(unsafeSQL: PGRows.assetSQL + " WHERE assets.id = $1", binds: binds)) else {
            throw InventoryError.notFound("asset \(id)")
        }
        return try PGRows.asset(row)
    }

    public func find(identifier: String) async throws -> Asset? {
        let key = try Identifier.normalize(identifier)
        return try await database.read { c in
            for column in ["asset_tag", "serial_num"] {
                var binds = PostgresBindings()
                binds.append(key)
                if let row = try await c.row(PostgresQuery(unsafeSQL: PGRows.assetSQL + " WHERE assets.\(column) = $1", binds: binds)) {
                    return try PGRows.asset(row)
                }
            }
            return nil
        }
    }

    public func create(_ input: AssetInput) async throws -> Asset {
        let asset = try checked { try input.makeAsset() }
        return try await database.transaction { c in
            try await checkUnique(c, asset)
            try await Self.checkCustomer(c, asset.customerId)
            let (columns, values, binds) = Self.assignments(asset)
            guard let row = try await c.row(PostgresQuery(unsafeSQL: "INSERT INTO assets (\(columns)) VALUES (\(values)) RETURNING id", binds: binds))
            else {
                throw InventoryError.storage("the new asset could not be read back")
            }
            return try await Self.fetch(c, id: try row.get("id"))
        }
    }

    public func update(id: Int64, _ input: AssetInput) async throws -> Asset {
        try await database.transaction { c in
            let before = try await Self.fetch(c, id: id)
            var asset = before
            try input.apply(to: &asset)
            try await checkUnique(c, asset)
            try await Self.checkCustomer(c, asset.customerId)
            try await Self.save(c, asset)
            try await Self.recordEdit(c, before: before, after: asset)
            return try await Self.fetch(c, id: id)
        }
    }

    public func delete(id: Int64, mode: DeleteMode) async throws -> Asset? {
        try await database.transaction { c in
            var asset = try await Self.fetch(c, id: id)
            switch mode {
            case .archive:
                let before = asset
                asset.status = .archived
                asset.updatedAt = Date()
                try await Self.save(c, asset)
                try await Self.recordEdit(c, before: before, after: asset)
                return try await Self.fetch(c, id: id)
            case .delete:
                if let running = try await c.row(
                    """
                    SELECT audits.country FROM audit_expected JOIN audits ON audits.id = audit_expected.audit_id
                    WHERE audits.ended_at IS NULL AND audit_expected.asset_id = \(id) LIMIT 1
                    """)
                {
                    throw InventoryError.inUse(
                        "Asset \(asset.assetTag) is expected by the running audit of \(try running.get("country", as: String.self)); archive it instead, or delete it after the audit ends"
                    )
                }
                try await c.run("DELETE FROM assets WHERE id = \(id)")
                return nil
            }
        }
    }

    public func transfer(id: Int64, _ request: TransferRequest) async throws -> Asset {
        let (reason, notes) = try request.checkedText()
        return try await database.transaction { c in
            var asset = try await Self.fetch(c, id: id)
            try await Self.checkCustomer(c, request.customerId)
            try await c.run(
                """
                INSERT INTO asset_transfers (asset_id, from_customer_id, to_customer_id, reason, notes, effective_date, created_at)
                VALUES (\(id), \(asset.customerId), \(request.customerId), \(reason), \(notes), \(request.effectiveDate), \(Date()))
                """)
            let before = asset
            asset.customerId = request.customerId
            asset.updatedAt = Date()
            try await Self.save(c, asset)
            try await Self.recordEdit(c, before: before, after: asset, kind: AssetHistoryEntry.transferKind)
            return try await Self.fetch(c, id: id)
        }
    }

    /// The same calendar check as the SQLite store.
    /// Tags and serials are unique; case-insensitively too when tags match that way.
    func checkUnique(_ c: PostgresConnection, _ asset: Asset) async throws {
        let match = { (column: String) in caseSensitive ? "\(column) = $1" : PGFold.match(column, "$1") }
        var binds = PostgresBindings()
        binds.append(asset.assetTag)
        binds.append(asset.id)
        if try await c.row(PostgresQuery(unsafeSQL: "SELECT id FROM assets WHERE \(match("asset_tag")) AND id <> $2", binds: binds)) != nil {
            throw InventoryError.duplicate(field: "asset_tag", value: asset.assetTag)
        }
        if let serial = asset.serialNum {
            var binds = PostgresBindings()
            binds.append(serial)
            binds.append(asset.id)
            if try await c.row(PostgresQuery(unsafeSQL: "SELECT id FROM assets WHERE \(match("serial_num")) AND id <> $2", binds: binds)) != nil {
                throw InventoryError.duplicate(field: "serial_num", value: serial)
            }
        }
        try await PGAccessoryTags.checkAsset(c, asset)
    }

    static func checkCustomer(_ c: PostgresConnection, _ customerId: Int64?) async throws {
        guard let customerId else { return }
        if try await c.row("SELECT 1 FROM customers WHERE id = \(customerId)") == nil {
            throw InventoryError.invalid(ValidationError(field: "customer_id", message: "\(customerId) is not a customer"))
        }
    }

    /// The stored columns of an asset, in one order: the column list, `$n` places and binds.
    static let columns = [
        "asset_tag", "serial_num", "name", "model", "status", "condition", "manufacturer", "asset_type", "cpu_type",
        "cpu_cores", "memory", "harddrive", "country", "location", "company", "customer_id", "notes", "tech_notes",
        "is_erased", "has_keyboard", "has_charger", "created_at", "updated_at"
    ]

    static func append(_ a: Asset, to binds: inout PostgresBindings) {
        for text in [
            a.assetTag, a.serialNum, a.name, a.model, a.status.rawValue, a.condition?.rawValue, a.manufacturer, a.assetType,
            a.cpuType, a.cpuCores, a.memory, a.harddrive, a.country, a.location, a.company
        ] { binds.append(text) }
        binds.append(a.customerId)
        binds.append(a.notes)
        binds.append(a.techNotes)
        binds.append(a.isErased)
        binds.append(a.hasKeyboard)
        binds.append(a.hasCharger)
        binds.append(a.createdAt)
        binds.append(a.updatedAt)
    }

    static func assignments(_ asset: Asset) -> (columns: String, values: String, binds: PostgresBindings) {
        var binds = PostgresBindings()
        append(asset, to: &binds)
        return (columns.joined(separator: ", "), (1...columns.count).map { "$\($0)" }.joined(separator: ", "), binds)
    }

    static func save(_ c: PostgresConnection, _ asset: Asset) async throws {
        var binds = PostgresBindings()
        append(asset, to: &binds)
        binds.append(asset.id)
        let sets = columns.enumerated().map { "\($1) = $\($0 + 1)" }.joined(separator: ", ")
        try await c.run(PostgresQuery(unsafeSQL: "UPDATE assets SET \(sets) WHERE id = $\(columns.count + 1)", binds: binds))
    }
}
