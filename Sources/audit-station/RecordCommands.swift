import ArgumentParser
import AuditAPI
import Foundation
import InventoryCore
import Station

/// A kind of record the CLI lists, shows, creates, changes and deletes (accessories, customers):
/// its service, its words and how a record prints. The commands below take one path for all.
protocol RecordKind {
    associatedtype Record: Codable & Sendable
    associatedtype Input: Sendable
    associatedtype Fields: ParsableArguments
    /// The service of this kind in a station's context.
    static func service(_ context: StationContext) -> any RecordService<Record, Input>
    /// "customer", as in "Deleted customer 3"; `listKey` names a JSON list's array.
    static var noun: String { get }
    static var listKey: String { get }
    /// Each command's one-line help.
    static var abstracts: RecordAbstracts { get }
    /// The table `list` prints: its header and a record's row.
    static var columns: [String] { get }
    static func row(_ record: Record) -> [String]
    /// The line that shows one record.
    static func line(_ record: Record) -> String
    static func input(_ fields: Fields) -> Input
}

/// A kind's service as the commands hold it. Swift does not turn an `any AccessoryService` into an
/// `any RecordService<Accessory, AccessoryInput>` by itself; passed through here, it is opened and
/// wrapped again.
func recordService<Service: RecordService>(_ service: Service) -> any RecordService<Service.Record, Service.Input> { service }

struct RecordAbstracts {
    var list: String
    var show: String
    var create: String
    var update: String
    var delete: String
}

extension RecordKind {
    /// One record: its line, or with `json` the record as pretty JSON.
    static func show(_ record: Record, json: Bool) throws {
        if json { return try Terminal.prettyJSON(record) }
        Terminal.line(line(record))
    }

    /// The list, show, create, update and delete commands of this kind, in that order.
    static var commands: [any ParsableCommand.Type] {
        [RecordList<Self>.self, RecordShow<Self>.self, RecordCreate<Self>.self, RecordUpdate<Self>.self, RecordDelete<Self>.self]
    }
}

struct RecordList<Kind: RecordKind>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "list", abstract: Kind.abstracts.list) }
    @OptionGroup var global: GlobalOptions
    @OptionGroup var paging: PageOptions

    func run() async throws {
        try await runReportingErrors {
            let page = try await Kind.service(StationContext.make(global)).list(query: paging.query)
            if paging.json { return try Terminal.json(ListResponse(page, key: Kind.listKey)) }
            Terminal.table(Kind.columns, page.items.map(Kind.row))
            Terminal.line(page.pagination.footer)
        }
    }
}

struct RecordShow<Kind: RecordKind>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "show", abstract: Kind.abstracts.show) }
    @OptionGroup var global: GlobalOptions
    @Argument var id: Int64
    @Flag var json = false

    func run() async throws {
        try await runReportingErrors { try Kind.show(try await Kind.service(StationContext.make(global)).get(id: id), json: json) }
    }
}

struct RecordCreate<Kind: RecordKind>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "create", abstract: Kind.abstracts.create) }
    @OptionGroup var global: GlobalOptions
    @OptionGroup var fields: Kind.Fields
    @Flag var json = false

    func run() async throws {
        try await runReportingErrors {
            try Kind.show(try await Kind.service(StationContext.make(global)).create(Kind.input(fields)), json: json)
        }
    }
}

struct RecordUpdate<Kind: RecordKind>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "update", abstract: Kind.abstracts.update) }
    @OptionGroup var global: GlobalOptions
    @Argument var id: Int64
    @OptionGroup var fields: Kind.Fields
    @Flag var json = false

    func run() async throws {
        try await runReportingErrors {
            try Kind.show(try await Kind.service(StationContext.make(global)).update(id: id, Kind.input(fields)), json: json)
        }
    }
}

struct RecordDelete<Kind: RecordKind>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "delete", abstract: Kind.abstracts.delete) }
    @OptionGroup var global: GlobalOptions
    @Argument var id: Int64

    func run() async throws {
        try await runReportingErrors {
            try await Kind.service(StationContext.make(global)).delete(id: id)
            Terminal.line("Deleted \(Kind.noun) \(id)")
        }
    }
}
