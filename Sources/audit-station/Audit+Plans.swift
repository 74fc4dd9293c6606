import ArgumentParser
import Foundation
import InventoryCore
import Station

extension AuditStation.Audit {
    struct Plan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "plan",
            abstract: "Plan cycle counts: a country, or one location of it, audited every N days.",
            discussion: """
                Plans live in the database of --database (or of --postgres): the station's own, or the server's. \
                Ending an audit of exactly a plan's scope (its country, or that one location) moves its next due date \
                to the end plus the interval; `audit due` lists where each plan stands.
                """,
            subcommands: [Add.self, List.self, Remove.self])
    }

    struct Due: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "due",
            abstract: "Every plan with its next due date and state: overdue first, then due, then ok.",
            discussion: "A plan is due within the window before its date, and from its creation until it is first audited.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var postgres: PostgresOption
        @Option(help: "The window before a due date that counts as due, in days (such as 14d).") var within = "\(DuePlan.defaultWindowDays)d"
        @Flag(help: "Print one JSON object a line.") var json = false

        func run() async throws {
            try await runReportingErrors {
                let window = try checked { try DayCount.parse(within, field: "--within", range: 0...AuditPlanInput.maxDays) }
                let due = try await PlanCommands.withPlans(global, postgres) { try await $0.due(at: Date(), windowDays: window) }
                if json, due.isEmpty { return }
                if json {
                    // One encoder and one write for every line: 10,000 plans print in one go.
                    let encoder = JSONEncoder.auditStation()
                    return Terminal.line(try due.map { String(decoding: try encoder.encode($0), as: UTF8.self) }.joined(separator: "\n"))
                }
                if due.isEmpty { return Terminal.line("No audit plans yet. Add one with `audit-station audit plan add --country CC --every 30d`.") }
                Terminal.table(
                    ["STATE", "PLAN", "SCOPE", "EVERY", "NEXT DUE", "LAST AUDIT", "ASSIGNEE"],
                    due.map {
                        [
                            $0.state.rawValue.uppercased(), String($0.planId), PlanCommands.scope($0.country, $0.location), "\($0.everyDays)d",
                            ISOTime.string($0.nextDueAt), $0.lastEndedAt.map(ISOTime.string) ?? "never", $0.assignee ?? ""
                        ]
                    })
            }
        }
    }
}

extension AuditStation.Audit.Plan {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Plan a country, or one location of it, every N days.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var postgres: PostgresOption
        @Option(help: "ISO 3166-1 alpha-2 code, such as SG.") var country: String
        @Option(help: "One location of the country (`audit locations` lists them); the whole country without it.") var location: String?
        @Option(help: "The interval in days, such as 30d.") var every: String
        @Option(help: "Who counts it (an email address).") var assignee: String?
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let days = try checked { try DayCount.parse(every, field: "--every") }
                let input = AuditPlanInput(country: country, location: location, everyDays: days, assignee: assignee)
                let plan = try await PlanCommands.withPlans(global, postgres) { try await $0.add(input) }
                if json { return try Terminal.json(plan) }
                Terminal.line(
                    "Added plan \(plan.id): \(PlanCommands.scope(plan.country, plan.location)) every \(plan.everyDays) days, due by \(ISOTime.string(plan.nextDueAt))"
                )
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Every plan, by id.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var postgres: PostgresOption
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let plans = try await PlanCommands.withPlans(global, postgres) { try await $0.list() }
                if json { return try Terminal.json(plans) }
                Terminal.table(
                    ["PLAN", "SCOPE", "EVERY", "ASSIGNEE", "LAST AUDIT", "NEXT DUE"],
                    plans.map {
                        [
                            String($0.id), PlanCommands.scope($0.country, $0.location), "\($0.everyDays)d", $0.assignee ?? "",
                            $0.lastAuditId ?? "never", ISOTime.string($0.nextDueAt)
                        ]
                    })
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a plan.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var postgres: PostgresOption
        @Argument(help: "The plan's id, as `audit plan list` shows it.") var id: Int64

        func run() async throws {
            try await runReportingErrors {
                try await PlanCommands.withPlans(global, postgres) { try await $0.remove(id: id) }
                Terminal.line("Removed plan \(id)")
            }
        }
    }
}

/// What the plan commands share: the database's plans, and how a scope reads.
enum PlanCommands {
    static func withPlans<T>(_ global: GlobalOptions, _ postgres: PostgresOption, _ body: (any AuditPlanService) async throws -> T) async throws -> T
    {
        let config = try StationConfig.load(path: global.config)
        return try await ServerDatabase(postgres, global: global, config: config).withBackend(config: config, maxConnections: 2) {
            try await body($0.plans)
        }
    }

    static func scope(_ country: String, _ location: String?) -> String {
        location.map { "\(country) / \($0)" } ?? country
    }
}

/// Runs input checks, reporting their field errors as `InventoryError.invalid`.
func checked<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as InventoryCore.ValidationError { throw InventoryError.invalid(error) }
}
