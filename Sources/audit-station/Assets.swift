import ArgumentParser
import AuditAPI
import Foundation
import Station
import InventoryCore

extension AuditStation {
    struct Assets: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "assets",
            abstract: "Manage assets and import the expected inventory.",
            subcommands: [
                Import.self, List.self, Show.self, Create.self, Update.self, Archive.self, Delete.self, Transfer.self, History.self, Labels.self
            ])
    }
}

/// The editable fields of an asset as command-line options.
struct AssetFields: ParsableArguments {
    @Option(name: .customLong("asset-tag")) var assetTag: String?
    @Option(name: .customLong("serial-num")) var serialNum: String?
    @Option var name: String?
    @Option var model: String?
    @Option(help: "IN_STOCK, DEPLOYED, READY_TO_DEPLOY, REPAIR, ARCHIVED, DISPOSED or MISSING.") var status: String?
    @Option(help: "NEW, GOOD, FAIR or POOR.") var condition: String?
    @Option var manufacturer: String?
    @Option(name: .customLong("asset-type")) var assetType: String?
    @Option(name: .customLong("cpu-type")) var cpuType: String?
    @Option(name: .customLong("cpu-cores")) var cpuCores: String?
    @Option var memory: String?
    @Option var harddrive: String?
    @Option(help: "ISO 3166-1 alpha-2 code, such as SG.") var country: String?
    @Option var location: String?
    @Option var company: String?
    @Option(name: .customLong("customer-id"), parsing: .unconditional) var customerId: Int64?
    @Option var notes: String?
    @Option(name: .customLong("tech-notes")) var techNotes: String?
    @Option(name: .customLong("is-erased")) var isErased: Bool?
    @Option(name: .customLong("has-keyboard")) var hasKeyboard: Bool?
    @Option(name: .customLong("has-charger")) var hasCharger: Bool?

    var input: AssetInput {
        AssetInput(
            assetTag: assetTag, serialNum: serialNum, name: name, model: model, status: status, condition: condition,
            manufacturer: manufacturer, assetType: assetType, cpuType: cpuType, cpuCores: cpuCores, memory: memory,
            harddrive: harddrive, country: country, location: location, company: company, customerId: customerId,
            notes: notes, techNotes: techNotes, isErased: isErased, hasKeyboard: hasKeyboard, hasCharger: hasCharger)
    }
}

/// Prints an asset as JSON or as labelled lines.
func show(_ asset: Asset, json: Bool) throws {
    if json { return try Terminal.prettyJSON(asset) }
    let fields: [(String, String?)] = [
        ("id", String(asset.id)), ("asset_tag", asset.assetTag), ("serial_num", asset.serialNum), ("name", asset.name),
        ("model", asset.model), ("status", asset.status.rawValue), ("condition", asset.condition?.rawValue),
        ("manufacturer", asset.manufacturer), ("asset_type", asset.assetType), ("cpu_type", asset.cpuType),
        ("cpu_cores", asset.cpuCores), ("memory", asset.memory), ("harddrive", asset.harddrive), ("country", asset.country),
        ("location", asset.location), ("company", asset.company),
        ("customer", asset.customerId.map { "\($0)\(asset.customer.map { " (\($0))" } ?? "")" }),
        ("notes", asset.notes), ("tech_notes", asset.techNotes), ("is_erased", String(asset.isErased)),
        ("has_keyboard", String(asset.hasKeyboard)), ("has_charger", String(asset.hasCharger)),
        ("updated_at", ISOTime.string(asset.updatedAt)), ("last_audited", asset.lastAuditedAt.map(ISOTime.string) ?? "never")
    ]
    for case let (label, value?) in fields { Terminal.line("\(label.padding(toLength: 13, withPad: " ", startingAt: 0)) \(value)") }
}

/// Finds an asset by numeric id, or else by tag or serial number.
func resolveAsset(_ reference: String, in context: StationContext) async throws -> Asset {
    if let id = Int64(reference), let asset = try? await context.assets.get(id: id) { return asset }
    guard let asset = try await context.assets.find(identifier: reference) else {
        throw InventoryError.notFound("asset '\(reference)' (no asset has that id, tag or serial number)")
    }
    return asset
}

extension AuditStation.Assets {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List assets.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var paging: PageOptions
        @Option var status: String?
        @Option var country: String?
        @Option(name: .customLong("customer-id"), parsing: .unconditional) var customerId: Int64?
        @Option(
            name: .customLong("not-audited-since"),
            help: "Only assets no ended audit has found since then: an age such as 180d, or an ISO 8601 time; least recently found first.")
        var notAuditedSince: String?

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global)
                var filter = AssetFilter(country: country, customerId: customerId)
                if let notAuditedSince {
                    do throws(InventoryCore.ValidationError) {
                        filter.notAuditedSince = try AuditAge.cutoff(notAuditedSince, field: "not-audited-since")
                    } catch {
                        throw InventoryError.invalid(error)
                    }
                }
                if let status {
                    guard let value = AssetStatus(rawValue: status.uppercased()) else {
                        throw InventoryError.invalid(
                            InventoryCore.ValidationError(
                                field: "status", message: "'\(status)' is not one of \(AssetStatus.allCases.map(\.rawValue).joined(separator: ", "))")
                        )
                    }
                    filter.status = value
                }
                let page = try await context.assets.list(filter, query: paging.query)
                if paging.json { return try Terminal.json(ListResponse(page, key: "assets")) }
                Terminal.table(
                    ["ID", "TAG", "SERIAL", "NAME", "STATUS", "COUNTRY", "LOCATION", "LAST AUDITED"],
                    page.items.map {
                        [
                            String($0.id), $0.assetTag, $0.serialNum ?? "", $0.name, $0.status.rawValue, $0.country, $0.location ?? "",
                            $0.lastAuditedAt.map(ISOTime.string) ?? "never"
                        ]
                    })
                Terminal.line(page.pagination.footer)
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one asset by id, tag or serial number.")
        @OptionGroup var global: GlobalOptions
        @Argument var asset: String
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                try show(try await resolveAsset(asset, in: try StationContext.make(global)), json: json)
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Create an asset (asset tag, name and country are required).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var fields: AssetFields
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                try show(try await StationContext.make(global).assets.create(fields.input), json: json)
            }
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update", abstract: "Change fields of an asset; an empty value clears an optional field.")
        @OptionGroup var global: GlobalOptions
        @Argument var asset: String
        @OptionGroup var fields: AssetFields
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global)
                let id = try await resolveAsset(asset, in: context).id
                try show(try await context.assets.update(id: id, fields.input), json: json)
            }
        }
    }
}

/// `{"items": […], "pagination": {…}}` for --json lists.

extension AuditStation.Assets {
    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "An asset's history, oldest first: each changed field, when, by whom, and the audit whose reconciliation changed it.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var paging: PageOptions
        @Argument(help: "The asset's id, tag or serial number.") var asset: String

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global)
                let found = try await resolveAsset(asset, in: context)
                let page = try await context.assets.history(assetID: found.id, query: paging.query)
                if paging.json { return try Terminal.json(ListResponse(page, key: "history")) }
                if page.pagination.total == 0 { return Terminal.line("Asset \(found.assetTag) has no history yet.") }
                Terminal.table(
                    ["AT", "FIELD", "FROM", "TO", "KIND", "AUDIT", "USER"],
                    page.items.map { [ISOTime.string($0.at), $0.field, $0.from ?? "", $0.to ?? "", $0.kind, $0.auditId ?? "", $0.user] })
                Terminal.line(page.pagination.footer)
            }
        }
    }
}
