import Foundation
import GRDB
import InventoryCore

/// Customers over the station's SQLite file.
public struct SQLiteCustomerService: CustomerService {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    public func list(query: ListQuery) async throws -> Page<Customer> {
        try await database.read { db in
            var sql = "SELECT * FROM customers"
            var arguments: StatementArguments = []
            if let search = query.search {
                sql += " WHERE name LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\' OR contact_number LIKE ? ESCAPE '\\'"
                let pattern = likePattern(search)
                arguments += [pattern, pattern, pattern]
            }
            let total = try db.count(sql: sql, arguments: arguments)
            let items = try Customer.fetchAll(
                db, sql: sql + " ORDER BY id LIMIT ? OFFSET ?",
                arguments: arguments + [query.perPage, query.offset])
            return Page(items: items, pagination: Pagination(query: query, total: total))
        }
    }

    public func get(id: Int64) async throws -> Customer {
        try await database.read { db in try Self.fetch(db, id: id) }
    }

    static func fetch(_ db: Database, id: Int64) throws -> Customer {
        guard let customer = try Customer.fetchOne(db, key: id) else { throw InventoryError.notFound("customer \(id)") }
        return customer
    }

    public func create(_ input: CustomerInput) async throws -> Customer {
        let newCustomer = try checked { try input.makeCustomer() }
        return try await database.write { db in
            var customer = newCustomer
            try customer.insert(db)
            return try Self.fetch(db, id: customer.id)
        }
    }

    public func update(id: Int64, _ input: CustomerInput) async throws -> Customer {
        try await database.write { db in
            var customer = try Self.fetch(db, id: id)
            try input.apply(to: &customer)
            try customer.update(db)
            return try Self.fetch(db, id: id)
        }
    }

    /// Refused while the customer has assets or holds accessories.
    public func delete(id: Int64) async throws {
        try await database.write { db in
            let customer = try Self.fetch(db, id: id)
            let assets = try Int.fetchOne(db, sql: "SELECT count(*) FROM assets WHERE customer_id = ?", arguments: [id]) ?? 0
            let accessories =
                try Int.fetchOne(db, sql: "SELECT COALESCE(SUM(quantity), 0) FROM accessory_holdings WHERE customer_id = ?", arguments: [id]) ?? 0
            if assets > 0 || accessories > 0 {
                var held: [String] = []
                if assets > 0 { held.append("\(assets) asset\(assets == 1 ? "" : "s")") }
                if accessories > 0 { held.append("\(accessories) accessor\(accessories == 1 ? "y" : "ies")") }
                throw InventoryError.inUse(
                    "Customer \(customer.name) still has \(held.joined(separator: " and ")) assigned; transfer or check them in first")
            }
            // Transfers to this customer are history of assets that have since moved on.
            try db.execute(sql: "DELETE FROM asset_transfers WHERE to_customer_id = ?", arguments: [id])
            _ = try Customer.deleteOne(db, key: id)
        }
    }
}
