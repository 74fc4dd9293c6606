import ArgumentParser
import Foundation
import Station
import InventoryCore

extension AuditStation {
    struct Accessories: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "accessories",
            abstract: "Manage accessories and check them out to customers.",
            subcommands: Accessories.commands + [Checkout.self, Checkin.self])
    }
}

struct AccessoryFields: ParsableArguments {
    @Option var name: String?
    @Option var category: String?
    @Option var manufacturer: String?
    @Option(name: .customLong("model-no")) var modelNo: String?
    @Option(name: .customLong("total-quantity"), parsing: .unconditional) var totalQuantity: Int?
    @Option var country: String?
    @Option var notes: String?
    @Option(name: .customLong("image-url")) var imageUrl: String?
    @Option(name: .customLong("company-id"), parsing: .unconditional) var companyId: Int64?
    @Option(help: "The tag an audit counts it by (unique among assets' tags and serials); an empty value clears it.") var tag: String?
    @Option(help: "Where it is kept; an audit narrowed to locations expects the accessories of those.") var location: String?

    var input: AccessoryInput {
        AccessoryInput(
            name: name, category: category, manufacturer: manufacturer, modelNo: modelNo, totalQuantity: totalQuantity,
            country: country, notes: notes, imageUrl: imageUrl, companyId: companyId, tag: tag, location: location)
    }
}

extension AuditStation.Accessories: RecordKind {
    static func service(_ context: StationContext) -> any RecordService<Accessory, AccessoryInput> { recordService(context.accessories) }
    static let noun = "accessory"
    static let listKey = "accessories"
    static let abstracts = RecordAbstracts(
        list: "List accessories.", show: "Show one accessory.", create: "Create an accessory (name and category are required).",
        update: "Change fields of an accessory.", delete: "Delete an accessory (refused while any are checked out).")
    static let columns = ["ID", "TAG", "NAME", "CATEGORY", "AVAILABLE", "TOTAL", "COUNTRY", "LOCATION"]

    static func row(_ accessory: Accessory) -> [String] {
        [
            String(accessory.id), accessory.tag ?? "", accessory.name, accessory.category, String(accessory.availableQuantity),
            String(accessory.totalQuantity), accessory.country ?? "", accessory.location ?? ""
        ]
    }

    static func line(_ accessory: Accessory) -> String {
        "\(accessory.id)  \(accessory.name) [\(accessory.category)]  \(accessory.availableQuantity) of \(accessory.totalQuantity) available"
    }

    static func input(_ fields: AccessoryFields) -> AccessoryInput { fields.input }
}

extension AuditStation.Accessories {
    struct Checkout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "checkout", abstract: "Check accessories out to a customer (no more than are available).")
        @OptionGroup var global: GlobalOptions
        @Argument var id: Int64
        @Option(name: .customLong("customer-id"), parsing: .unconditional) var customerId: Int64
        @Option(parsing: .unconditional) var quantity = 1
        @Option var notes: String?
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let accessory = try await StationContext.make(global).accessories.checkout(
                    id: id, AccessoryMovement(customerId: customerId, quantity: quantity, notes: notes))
                try AuditStation.Accessories.show(accessory, json: json)
            }
        }
    }

    struct Checkin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "checkin", abstract: "Check accessories back in from a customer (no more than they hold).")
        @OptionGroup var global: GlobalOptions
        @Argument var id: Int64
        @Option(name: .customLong("customer-id"), parsing: .unconditional) var customerId: Int64
        @Option(parsing: .unconditional) var quantity = 1
        @Option var condition: String?
        @Option var notes: String?
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let accessory = try await StationContext.make(global).accessories.checkin(
                    id: id, AccessoryMovement(customerId: customerId, quantity: quantity, condition: condition, notes: notes))
                try AuditStation.Accessories.show(accessory, json: json)
            }
        }
    }
}
