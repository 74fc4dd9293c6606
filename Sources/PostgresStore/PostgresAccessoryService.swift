import Foundation
import InventoryCore
import PostgresNIO

/// Accessories and their checkouts over PostgreSQL, with the SQLite store's checks and errors.
/// A movement locks the accessory's row, so two servers cannot both hand out the last one.
public struct PostgresAccessoryService: AccessoryService {
    let database: PostgresDatabase

    public init(database: PostgresDatabase) { self.database = database }

    public func list(query: ListQuery) async throws -> Page<Accessory> { try await list(query: query, countries: nil) }

    public func list(query: ListQuery, countries: Set<String>?) async throws -> Page<Accessory> {
        try await database.read { c in
            var binds = Binds()
            var conditions: [String] = []
            if let search = query.search {
                let p = binds.add(likePattern(search))
                conditions.append("(name ILIKE \(p) OR category ILIKE \(p) OR model_no ILIKE \(p))")
            }
            if let countries { conditions.append("(country IS NULL OR country = ANY(\(binds.add(countries.sorted()))))") }
            let whereSQL = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            let total = try await c.count("SELECT id FROM accessories" + whereSQL, binds.bindings)
            let limit = binds.add(query.perPage), offset = binds.add(query.offset)
            let items = try await c.rows(
                PostgresQuery(
                    unsafeSQL: PGRows.accessorySQL + whereSQL + " ORDER BY id LIMIT \(limit) OFFSET \(offset)",
                    binds: binds.bindings)
            ).map(PGRows.accessory)
            return Page(items: items, pagination: Pagination(query: query, total: total))
        }
    }

    public func get(id: Int64) async throws -> Accessory {
        try await database.read { c in try await Self.fetch(c, id: id) }
    }

    static func fetch(_ c: PostgresConnection, id: Int64, lock: Bool = false) async throws -> Accessory {
        var binds = PostgresBindings()
        binds.append(id)
        guard
            let row = try await c.row(
                PostgresQuery(
                    unsafeSQL: PGRows.accessorySQL + " WHERE id = $1" + (lock ? " FOR UPDATE" : ""),
                    binds: binds))
        else {
            throw InventoryError.notFound("accessory \(id)")
        }
        return try PGRows.accessory(row)
    }

    static func checkedOut(_ c: PostgresConnection, id: Int64) async throws -> Int {
        try await c.row("SELECT COALESCE(SUM(quantity), 0)::BIGINT FROM accessory_holdings WHERE accessory_id = \(id)")?.int(0) ?? 0
    }

    public func create(_ input: AccessoryInput) async throws -> Accessory {
        let new = try checked { try input.makeAccessory() }
        return try await database.transaction { c in
            try await PGAccessoryTags.checkUnique(c, new.tag, except: nil)
            guard
                let row = try await c.row(
                    """
                    INSERT INTO accessories (name, category, manufacturer, model_no, total_quantity, country, notes, image_url, company_id,
                        created_at, updated_at, tag, location)
                    VALUES (\(new.name), \(new.category), \(new.manufacturer), \(new.modelNo), \(new.totalQuantity), \(new.country),
                            \(new.notes), \(new.imageUrl), \(new.companyId), \(new.createdAt), \(new.updatedAt), \(new.tag),
                            \(new.location)) RETURNING id
                    """)
            else { throw InventoryError.storage("the new accessory could not be read back") }
            return try await Self.fetch(c, id: try row.get("id"))
        }
    }

    public func update(id: Int64, _ input: AccessoryInput) async throws -> Accessory {
        try await database.transaction { c in
            var accessory = try await Self.fetch(c, id: id, lock: true)
            try input.apply(to: &accessory, checkedOut: try await Self.checkedOut(c, id: id))
            try await PGAccessoryTags.checkUnique(c, accessory.tag, except: id)
            try await c.run(
                """
                UPDATE accessories SET name = \(accessory.name), category = \(accessory.category), manufacturer = \(accessory.manufacturer),
                    model_no = \(accessory.modelNo), total_quantity = \(accessory.totalQuantity), country = \(accessory.country),
                    notes = \(accessory.notes), image_url = \(accessory.imageUrl), company_id = \(accessory.companyId),
                    updated_at = \(accessory.updatedAt), tag = \(accessory.tag), location = \(accessory.location) WHERE id = \(id)
                """)
            return try await Self.fetch(c, id: id)
        }
    }

    public func delete(id: Int64) async throws {
        try await database.transaction { c in
            let accessory = try await Self.fetch(c, id: id, lock: true)
            let out = try await Self.checkedOut(c, id: id)
            if out > 0 {
                throw InventoryError.inUse("\(out) of \(accessory.name) are checked out; check them in before deleting it")
            }
            try await c.run("DELETE FROM accessories WHERE id = \(id)")
        }
    }

    public func checkout(id: Int64, _ movement: AccessoryMovement) async throws -> Accessory {
        try await move(id: id, movement, kind: "checkout")
    }

    public func checkin(id: Int64, _ movement: AccessoryMovement) async throws -> Accessory {
        try await move(id: id, movement, kind: "checkin")
    }

    private func move(id: Int64, _ movement: AccessoryMovement, kind: String) async throws -> Accessory {
        let (condition, notes) = try movement.checkedText()
        return try await database.transaction { c in
            let accessory = try await Self.fetch(c, id: id, lock: true)
            _ = try await PostgresCustomerService.fetch(c, id: movement.customerId)
            let held =
                try await c.row(
                    """
                    SELECT quantity FROM accessory_holdings WHERE accessory_id = \(id) AND customer_id = \(movement.customerId)
                    """)?.int(0) ?? 0
            if kind == "checkout" {
                try movement.validate(limit: accessory.availableQuantity, limitName: "of \(accessory.name) are available")
                try await c.run(
                    """
                    INSERT INTO accessory_holdings (accessory_id, customer_id, quantity) VALUES (\(id), \(movement.customerId), \(movement.quantity))
                    ON CONFLICT (accessory_id, customer_id) DO UPDATE SET quantity = accessory_holdings.quantity + excluded.quantity
                    """)
            } else {
                try movement.validate(limit: held, limitName: "of \(accessory.name) are held by customer \(movement.customerId)")
                if held == movement.quantity {
                    try await c.run("DELETE FROM accessory_holdings WHERE accessory_id = \(id) AND customer_id = \(movement.customerId)")
                } else {
                    try await c.run(
                        """
                        UPDATE accessory_holdings SET quantity = quantity - \(movement.quantity)
                        WHERE accessory_id = \(id) AND customer_id = \(movement.customerId)
                        """)
                }
            }
            try await c.run(
                """
                INSERT INTO accessory_movements (accessory_id, customer_id, kind, quantity, condition, notes, created_at)
                VALUES (\(id), \(movement.customerId), \(kind), \(movement.quantity), \(condition), \(notes), \(Date()))
                """)
            return try await Self.fetch(c, id: id)
        }
    }
}
