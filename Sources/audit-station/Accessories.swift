import ArgumentParser
import AuditAPI
import Foundation
import Station
import InventoryCore

extension AuditStation {
    struct Accessories: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Manage accessories and check them out to customers.",
            subcommands: [List.self, Show.self, Create.self, Update.self, Delete.self, Checkout.self, Checkin.self])
    }
}

struct AccessoryFields: ParsableArguments {
    @Option var name: String?
    @Option var category: String?
    @Option var manufacturer: String?
    @Option(name: .customLong("model-no")) var modelNo: String?
    @Option(name: .customLong("total-quantity")) var totalQuantity: Int?
    @Option var country: String?
    @Option var notes: String?
    @Option(name: .customLong("image-url")) var imageUrl: String?
    @Option(name: .customLong("company-id")) var companyId: Int64?

    var input: AccessoryInput {
        AccessoryInput(name: name, category: category, manufacturer: manufacturer, modelNo: modelNo, totalQuantity: totalQuantity,
                       country: country, notes: notes, imageUrl: imageUrl, companyId: companyId)
    }
}

func show(_ accessory: Accessory, json: Bool) throws {
    if json { return try Terminal.prettyJSON(accessory) }
    Terminal.line("\(accessory.id)  \(accessory.name) [\(accessory.category)]  \(accessory.availableQuantity) of \(accessory.totalQuantity) available")
}

extension AuditStation.Accessories {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accessories.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var paging: PageOptions

        func run() async throws {
            try await runReportingErrors {
                let page = try await StationContext.make(global).accessories.list(query: paging.query)
                if paging.json { return try Terminal.json(ListResponse(page, key: "accessories")) }
                Terminal.table(["ID", "NAME", "CATEGORY", "AVAILABLE", "TOTAL", "COUNTRY"], page.items.map {
                    [String($0.id), $0.name, $0.category, String($0.availableQuantity), String($0.totalQuantity), $0.country ?? ""]
                })
                Terminal.line(page.pagination.footer)
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one accessory.")
        @OptionGroup var global: GlobalOptions
        @Argument var id: Int64
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors { try show(try await StationContext.make(global).accessories.get(id: id), json: json) }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an accessory (name and category are required).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var fields: AccessoryFields
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors { try show(try await StationContext.make(global).accessories.create(fields.input), json: json) }
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change fields of an accessory.")
        @OptionGroup var global: GlobalOptions
        @Argument var id: Int64
        @OptionGroup var fields: AccessoryFields
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors { try show(try await StationContext.make(global).accessories.update(id: id, fields.input), json: json) }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an accessory (refused while any are checked out).")
        @OptionGroup var global: GlobalOptions
        @Argument var id: Int64

        func run() async throws {
            try await runReportingErrors {
                try await StationContext.make(global).accessories.delete(id: id)
                Terminal.line("Deleted accessory \(id)")
            }
        }
    }

    struct Checkout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check accessories out to a customer (no more than are available).")
        @OptionGroup var global: GlobalOptions
        @Argument var id: Int64
        @Option(name: .customLong("customer-id")) var customerId: Int64
        @Option var quantity = 1
        @Option var notes: String?
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let accessory = try await StationContext.make(global).accessories.checkout(
                    id: id, AccessoryMovement(customerId: customerId, quantity: quantity, notes: notes))
                try show(accessory, json: json)
            }
        }
    }

    struct Checkin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check accessories back in from a customer (no more than they hold).")
        @OptionGroup var global: GlobalOptions
        @Argument var id: Int64
        @Option(name: .customLong("customer-id")) var customerId: Int64
        @Option var quantity = 1
        @Option var condition: String?
        @Option var notes: String?
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let accessory = try await StationContext.make(global).accessories.checkin(
                    id: id, AccessoryMovement(customerId: customerId, quantity: quantity, condition: condition, notes: notes))
                try show(accessory, json: json)
            }
        }
    }
}
