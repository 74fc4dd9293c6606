import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// `/api/v2/customers`.
struct CustomerController {
    let customers: any CustomerService

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        RecordRoutes<Customer, CustomerInput>(collection: Routes.customers, one: Routes.customer, noun: "Customer") {
            try $0.requireCustomerEditing()
        }.add(customers, key: "customers", to: routes, on: router)
    }
}
