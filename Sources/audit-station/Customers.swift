import ArgumentParser
import Foundation
import Station
import InventoryCore

extension AuditStation {
    struct Customers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "customers",
            abstract: "Manage customers.",
            subcommands: Customers.commands)
    }
}

struct CustomerFields: ParsableArguments {
    @Option var name: String?
    @Option(name: .customLong("contact-number")) var contactNumber: String?
    @Option var address: String?
    @Option var country: String?
    @Option var email: String?
    @Option(name: .customLong("company-id"), parsing: .unconditional) var companyId: Int64?

    var input: CustomerInput {
        CustomerInput(name: name, contactNumber: contactNumber, address: address, country: country, email: email, companyId: companyId)
    }
}

extension AuditStation.Customers: RecordKind {
    static func service(_ context: StationContext) -> any RecordService<Customer, CustomerInput> { recordService(context.customers) }
    static let noun = "customer"
    static let listKey = "customers"
    static let abstracts = RecordAbstracts(
        list: "List customers.", show: "Show one customer.",
        create: "Create a customer (name, contact number, address and country are required).",
        update: "Change fields of a customer.", delete: "Delete a customer (refused while assets or accessories are assigned).")
    static let columns = ["ID", "NAME", "CONTACT", "COUNTRY", "EMAIL"]

    static func row(_ customer: Customer) -> [String] {
        [String(customer.id), customer.name, customer.contactNumber, customer.country, customer.email ?? ""]
    }

    static func line(_ customer: Customer) -> String {
        "\(customer.id)  \(customer.name)  \(customer.contactNumber)  \(customer.country)  \(customer.email ?? "")"
    }

    static func input(_ fields: CustomerFields) -> CustomerInput { fields.input }
}
