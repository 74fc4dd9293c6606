import ArgumentParser
import Foundation
import InventoryCore
import Station

extension AuditStation.Audit {
    struct Count: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "count",
            abstract: "Set how many of an accessory the running audit counted where the station stands.",
            discussion: """
                TAG is the accessory's tag; QUANTITY replaces what was counted of it at the station's location (each scan of the \
                tag adds one there). The audit's accessories and their counts are in its reports.
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var choice: AuditChoice
        @Argument(help: "The accessory's tag.") var tag: String
        @Argument(help: "How many stand here.") var quantity: Int
        @Option(help: "Where the station stands (default: station.location of the configuration).") var location: String?
        @Option(help: "Who counted (default: your login name).") var user: String?
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global, user: user)
                let place = try location.map(checkedLocation) ?? context.config.station.location
                let audit = try await context.audit.resolveActive(auditID: choice.auditID, country: choice.country)
                let result = try await context.audit.count(
                    CountRequest(
                        tag: tag, quantity: quantity, auditId: audit.id, location: place, deviceName: context.actor.station,
                        user: context.actor.user))
                if json { return try Terminal.json(result) }
                Terminal.line(result.message)
            }
        }
    }
}
