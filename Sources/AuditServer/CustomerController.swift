import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// `/api/v2/customers`.
struct CustomerController {
    let customers: any CustomerService

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.get, Routes.customers, on: router) { request, context in
            _ = try context.requireUser()
            return try Response.envelope(ListResponse(try await customers.list(query: try request.listQuery()), key: "customers"))
        }
        routes.add(.get, Routes.customer, on: router) { _, context in
            _ = try context.requireUser()
            return try Response.envelope(try await customers.get(id: try context.id()))
        }
        routes.add(.post, Routes.customers, on: router) { request, context in
            var request = request
            try context.requireUser().requireCustomerEditing()
            let input = try await request.decodeJSON(CustomerInput.self)
            return try Response.envelope(try await customers.create(input), status: .created, message: "Customer created")
        }
        routes.add(.put, Routes.customer, on: router) { request, context in
            var request = request
            try context.requireUser().requireCustomerEditing()
            let input = try await request.decodeJSON(CustomerInput.self)
            return try Response.envelope(try await customers.update(id: try context.id(), input), message: "Customer updated")
        }
        routes.add(.delete, Routes.customer, on: router) { _, context in
            try context.requireUser().requireCustomerEditing()
            try await customers.delete(id: try context.id())
            return try Response.envelope(Empty(), message: "Customer deleted")
        }
    }
}
