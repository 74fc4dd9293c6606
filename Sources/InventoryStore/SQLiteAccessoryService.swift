import Foundation
import GRDB
import InventoryCore

/// Accessories and their checkouts over the station's SQLite file.
public struct SQLiteAccessoryService: AccessoryService {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    public func list(query: ListQuery) async throws -> Page<Accessory> { try await list(query: query, countries: nil) }

    public func list(query: ListQuery, countries: Set<String>?) async throws -> Page<Accessory> {
        try await database.read { db in
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if let search = query.search {
                conditions.append("(name LIKE ? ESCAPE '\\' OR category LIKE ? ESCAPE '\\' OR model_no LIKE ? ESCAPE '\\')")
                let pattern = likePattern(search)
                arguments += [pattern, pattern, pattern]
            }
            if let countries {
                let marks = countries.map { _ in "?" }.joined(separator: ", ")
                conditions.append("(country IS NULL OR country IN (\(marks)))")
                arguments += StatementArguments(countries.sorted())
            }
            let whereSQL = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            let total = try db.count(sql: "SELECT id FROM accessories" + whereSQL, arguments: arguments)
            let items = try Accessory.fetchAll(
                db, sql: Accessory.selectSQL + whereSQL + " ORDER BY id LIMIT ? OFFSET ?",
                arguments: arguments + [query.perPage, query.offset])
            return Page(items: items, pagination: Pagination(query: query, total: total))
        }
    }

    public func get(id: Int64) async throws -> Accessory {
        try await database.read { db in try Self.fetch(db, id: id) }
    }

    static func fetch(_ db: Database, id: Int64) throws -> Accessory {
        guard let accessory = try Accessory.fetchOne(db, sql: Accessory.selectSQL + " WHERE id = ?", arguments: [id]) else {
            throw InventoryError.notFound("accessory \(id)")
        }
        return accessory
    }

    static func checkedOut(_ db: Database, id: Int64) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(quantity), 0) FROM accessory_holdings WHERE accessory_id = ?", arguments: [id]) ?? 0
    }

    public func create(_ input: AccessoryInput) async throws -> Accessory {
        let newAccessory = try checked { try input.makeAccessory() }
        return try await database.write { db in
            var accessory = newAccessory
            try AccessoryTags.checkUnique(db, accessory.tag, except: nil)
            try accessory.insert(db)
            return try Self.fetch(db, id: accessory.id)
        }
    }

    public func update(id: Int64, _ input: AccessoryInput) async throws -> Accessory {
        try await database.write { db in
            var accessory = try Self.fetch(db, id: id)
            try input.apply(to: &accessory, checkedOut: try Self.checkedOut(db, id: id))
            try AccessoryTags.checkUnique(db, accessory.tag, except: id)
            try accessory.update(db)
            return try Self.fetch(db, id: id)
        }
    }

    public func delete(id: Int64) async throws {
        try await database.write { db in
            let accessory = try Self.fetch(db, id: id)
            let out = try Self.checkedOut(db, id: id)
            if out > 0 {
                throw InventoryError.inUse("\(out) of \(accessory.name) are checked out; check them in before deleting it")
            }
            _ = try Accessory.deleteOne(db, key: id)
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
        return try await database.write { db in
            let accessory = try Self.fetch(db, id: id)
            _ = try SQLiteCustomerService.fetch(db, id: movement.customerId)
            let held =
                try Int.fetchOne(
                    db, sql: "SELECT quantity FROM accessory_holdings WHERE accessory_id = ? AND customer_id = ?",
                    arguments: [id, movement.customerId]) ?? 0
            if kind == "checkout" {
                try movement.validate(limit: accessory.availableQuantity, limitName: "of \(accessory.name) are available")
                try db.execute(
                    sql: """
                        INSERT INTO accessory_holdings (accessory_id, customer_id, quantity) VALUES (?, ?, ?)
                        ON CONFLICT (accessory_id, customer_id) DO UPDATE SET quantity = quantity + excluded.quantity
                        """, arguments: [id, movement.customerId, movement.quantity])
            } else {
                try movement.validate(limit: held, limitName: "of \(accessory.name) are held by customer \(movement.customerId)")
                if held == movement.quantity {
                    try db.execute(
                        sql: "DELETE FROM accessory_holdings WHERE accessory_id = ? AND customer_id = ?",
                        arguments: [id, movement.customerId])
                } else {
                    try db.execute(
                        sql: "UPDATE accessory_holdings SET quantity = quantity - ? WHERE accessory_id = ? AND customer_id = ?",
                        arguments: [movement.quantity, id, movement.customerId])
                }
            }
            try db.execute(
                sql: """
                    INSERT INTO accessory_movements (accessory_id, customer_id, kind, quantity, condition, notes, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [id, movement.customerId, kind, movement.quantity, condition, notes, Date()])
            return try Self.fetch(db, id: id)
        }
    }
}
