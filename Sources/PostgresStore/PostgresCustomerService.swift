import Foundation
import InventoryCore
import PostgresNIO

/// Customers over PostgreSQL, with the SQLite store's checks and errors.
public struct PostgresCustomerService: CustomerService {
    let database: PostgresDatabase

    public init(database: PostgresDatabase) { self.database = database }

    public func list(query: ListQuery) async throws -> Page<Customer> {
        try await database.read { c in
            var binds = Binds()
            var sql = "SELECT * FROM customers"
            if let search = query.search {
                let p = binds.add(likePattern(search))
                sql += " WHERE name ILIKE \(p) OR email ILIKE \(p) OR contact_number ILIKE \(p)"
            }
            let total = try await c.count(sql, binds.bindings)
            let limit = binds.add(query.perPage), offset = binds.add(query.offset)
            let items = try await c.rows(PostgresQuery(unsafeSQL: sql + " ORDER BY id LIMIT \(limit) OFFSET \(offset)", binds: binds.bindings))
                .map(PGRows.customer)
            return Page(items: items, pagination: Pagination(query: query, total: total))
        }
    }

    public func get(id: Int64) async throws -> Customer {
        try await database.read { c in try await Self.fetch(c, id: id) }
    }

    static func fetch(_ c: PostgresConnection, id: Int64) async throws -> Customer {
        guard let row = try await c.row("SELECT * FROM customers WHERE id = \(id)") else { throw InventoryError.notFound("customer \(id)") }
        return try PGRows.customer(row)
    }

    public func create(_ input: CustomerInput) async throws -> Customer {
        let new = try checked { try input.makeCustomer() }
        return try await database.transaction { c in
            guard
                let row = try await c.row(
                    """
                    INSERT INTO customers (name, contact_number, address, country, email, company_id, created_at, updated_at)
                    VALUES (\(new.name), \(new.contactNumber), \(new.address), \(new.country), \(new.email), \(new.companyId),
                            \(new.createdAt), \(new.updatedAt)) RETURNING *
                    """)
            else { throw InventoryError.storage("the new customer could not be read back") }
            return try PGRows.customer(row)
        }
    }

    public func update(id: Int64, _ input: CustomerInput) async throws -> Customer {
        try await database.transaction { c in
            var customer = try await Self.fetch(c, id: id)
            try input.apply(to: &customer)
            try await c.run(
                """
                UPDATE customers SET name = \(customer.name), contact_number = \(customer.contactNumber), address = \(customer.address),
                    country = \(customer.country), email = \(customer.email), company_id = \(customer.companyId),
                    created_at = \(customer.createdAt), updated_at = \(customer.updatedAt) WHERE id = \(id)
                """)
            return try await Self.fetch(c, id: id)
        }
    }

    /// Refused while the customer has assets or holds accessories.
    public func delete(id: Int64) async throws {
        try await database.transaction { c in
            let customer = try await Self.fetch(c, id: id)
            let held = try await c.row(
                """
                SELECT (SELECT count(*) FROM assets WHERE customer_id = \(id)) AS assets,
                       (SELECT COALESCE(SUM(quantity), 0) FROM accessory_holdings WHERE customer_id = \(id))::BIGINT AS accessories
                """)
            let assets = try held?.get("assets", as: Int.self) ?? 0
            let accessories = try held?.get("accessories", as: Int.self) ?? 0
            if assets > 0 || accessories > 0 {
                var parts: [String] = []
                if assets > 0 { parts.append("\(assets) asset\(assets == 1 ? "" : "s")") }
                if accessories > 0 { parts.append("\(accessories) accessor\(accessories == 1 ? "y" : "ies")") }
                throw InventoryError.inUse(
                    "Customer \(customer.name) still has \(parts.joined(separator: " and ")) assigned; transfer or check them in first")
            }
            // Transfers to this customer are history of assets that have since moved on.
            try await c.run("DELETE FROM asset_transfers WHERE to_customer_id = \(id)")
            try await c.run("DELETE FROM customers WHERE id = \(id)")
        }
    }
}
