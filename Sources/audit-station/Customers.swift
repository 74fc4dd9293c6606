import ArgumentParser
import AuditAPI
import Foundation
import Station
import InventoryCore

extension AuditStation {
    struct Customers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Manage customers.",
            subcommands: [List.self, Show.self, Create.self, Update.self, Delete.self])
    }
}

struct CustomerFields: ParsableArguments {
    @Option var name: String?
    @Option(name: .customLong("contact-number")) var contactNumber: String?
    @Option var address: String?
    @Option var country: String?
    @Option var email: String?
    @Option(name: .customLong("company-id")) var companyId: Int64?

    var input: CustomerInput {
        CustomerInput(name: name, contactNumber: contactNumber, address: address, country: country, email: email, companyId: companyId)
    }
}

func show(_ customer: Customer, json: Bool) throws {
    if json { return try Terminal.prettyJSON(customer) }
    Terminal.line("\(customer.id)  \(customer.name)  \(customer.contactNumber)  \(customer.country)  \(customer.email ?? "")")
}

extension AuditStation.Customers {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List customers.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var paging: PageOptions

        func run() async throws {
            try await runReportingErrors {
                let page = try await StationContext.make(global).customers.list(query: paging.query)
                if paging.json { return try Terminal.json(ListResponse(page, key: "customers")) }
                Terminal.table(["ID", "NAME", "CONTACT", "COUNTRY", "EMAIL"], page.items.map {
                    [String($0.id), $0.name, $0.contactNumber, $0.country, $0.email ?? ""]
                })
                Terminal.line(page.pagination.footer)
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one customer.")
        @OptionGroup var global: GlobalOptions
        @Argument var id: Int64
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors { try show(try await StationContext.make(global).customers.get(id: id), json: json) }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a customer (name, contact number, address and country are required).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var fields: CustomerFields
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors { try show(try await StationContext.make(global).customers.create(fields.input), json: json) }
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change fields of a customer.")
        @OptionGroup var global: GlobalOptions
        @Argument var id: Int64
        @OptionGroup var fields: CustomerFields
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors { try show(try await StationContext.make(global).customers.update(id: id, fields.input), json: json) }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a customer (refused while assets or accessories are assigned).")
        @OptionGroup var global: GlobalOptions
        @Argument var id: Int64

        func run() async throws {
            try await runReportingErrors {
                try await StationContext.make(global).customers.delete(id: id)
                Terminal.line("Deleted customer \(id)")
            }
        }
    }
}
