import ArgumentParser
import AuditClient
import ConnectedStation
import Foundation
import InventoryCore
import InventoryStore
import Station

extension AuditStation {
    struct Audit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "audit",
            abstract: "Run an audit: start it, scan tags, follow progress, end it and export reports.",
            subcommands: [
                Countries.self, Locations.self, Start.self, Status.self, Scan.self, Count.self, VoidScan.self, End.self, Details.self, Scans.self,
                Report.self, History.self, Photo.self, Reconcile.self, Plan.self, Due.self
            ])
    }
}

/// Formats a session's numbers for people.
enum AuditText {
    static func percent(_ value: Double) -> String { Completion.text(value) }

    static func progress(_ p: AuditProgress) -> String {
        "\(p.scannedCount)/\(p.totalAssets) scanned (\(percent(p.completionPercentage))), \(p.missingCount) missing, \(p.unexpectedCount) unexpected"
    }

    static func duration(_ seconds: Int) -> String {
        let h = seconds / 3600, m = seconds % 3600 / 60, s = seconds % 60
        return h > 0 ? "\(h)h \(m)m \(s)s" : m > 0 ? "\(m)m \(s)s" : "\(s)s"
    }

    static func session(_ audit: AuditSession) -> [String] {
        let state =
            audit.isActive
            ? "running since \(ISOTime.string(audit.startedAt))"
            : "ended \(ISOTime.string(audit.endedAt ?? audit.startedAt)) by \(audit.endedBy ?? "?")"
        return [
            "Audit \(audit.id) of \(audit.country)\(audit.locations.map { " (\($0.joined(separator: ", ")))" } ?? ""): \(state) (started by \(audit.startedBy))",
            "  Expected    \(audit.totalAssets)",
            "  Scanned     \(audit.scannedCount)  (\(percent(audit.completionPercentage)))",
            "  Missing     \(audit.missingCount)",
            "  Unexpected  \(audit.unexpectedCount)"
        ] + ((audit.lateScanCount ?? 0) > 0 ? ["  Late scans  \(audit.lateScanCount ?? 0)  (arrived after the end, made before it; counted)"] : [])
    }

    static func entry(_ item: AuditAsset) -> [String] {
        [
            item.assetTag ?? item.identifier, item.serialNum ?? "", item.name ?? "",
            item.misplaced == true ? "misplaced (at \(item.foundLocation ?? "?"), registered at \(item.location ?? "none"))" : item.outcome.rawValue,
            item.reason?.rawValue ?? "", item.firstScannedAt.map(ISOTime.string) ?? "", item.user ?? "", item.station ?? ""
        ]
    }

    static let entryHeader = ["TAG", "SERIAL", "NAME", "OUTCOME", "REASON", "FIRST SCANNED", "USER", "STATION"]

    /// The end-of-audit summary: numbers, duration, people, and the missing and unexpected lists.
    static func summary(_ summary: AuditSummary, listLimit: Int = 20) {
        for line in session(summary.audit) { Terminal.line(line) }
        Terminal.line("  Duration    \(duration(summary.durationSeconds))")
        for (title, items, total) in [
            ("Missing", summary.missing, summary.audit.missingCount),
            ("Unexpected", summary.unexpected, summary.audit.unexpectedCount)
        ] where total > 0 {
            Terminal.line("")
            Terminal.line(Terminal.paint("\(title) (\(total)):", .bold))
            for item in items.prefix(listLimit) {
                let what = item.assetTag.map { "\($0)  \(item.name ?? "")" } ?? "'\(item.identifier)'"
                Terminal.line("  \(what)\(item.reason.map { "  [\($0.rawValue)]" } ?? "")")
            }
            if total > listLimit { Terminal.line("  … and \(total - listLimit) more (see `audit details` or the report)") }
        }
    }
}

extension AuditStation.Audit {
    struct Countries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "countries", abstract: "Countries you may audit, with their expected asset counts.")
        @OptionGroup var global: GlobalOptions
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let countries = try await StationContext.make(global).audit.countries()
                if json { return try Terminal.json(countries) }
                Terminal.table(
                    ["COUNTRY", "EXPECTED", "RUNNING AUDIT"],
                    countries.map {
                        [$0.country, String($0.expectedAssets), $0.activeAuditId ?? ""]
                    })
            }
        }
    }

    struct Locations: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "locations",
            abstract: "The locations of a country's assets, with the assets an audit of each would expect.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "ISO 3166-1 alpha-2 code, such as SG.") var country: String
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let locations = try await StationContext.make(global).audit.locations(country: country)
                if json { return try Terminal.json(locations) }
                if locations.isEmpty { return Terminal.line("No asset of \(country.uppercased()) has a location.") }
                Terminal.table(["LOCATION", "EXPECTED"], locations.map { [$0.location, String($0.expectedAssets)] })
            }
        }
    }

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start", abstract: "Start an audit of a country (its expected set is fixed now).")
        @OptionGroup var global: GlobalOptions
        @Option(help: "ISO 3166-1 alpha-2 code, such as SG.") var country: String
        @Option(
            help: ArgumentHelp(
                "Narrow the audit to this location of the country (repeat for several; `audit locations` lists them).",
                valueName: "location"))
        var location: [String] = []
        @Option(help: "Who starts it (default: your login name).") var user: String?
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global, user: user)
                let audit = try await context.audit.start(country: country, locations: location, by: context.actor)
                if json { return try Terminal.json(audit) }
                for line in AuditText.session(audit) { Terminal.line(line) }
                Terminal.line("Scan with `audit-station audit scan`.")
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "The running audit's progress (all running audits when none is named).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var choice: AuditChoice
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global)
                let audits =
                    choice.country == nil && choice.auditID == nil
                    ? try await context.audit.activeAudits()
                    : [try await context.audit.resolveActive(auditID: choice.auditID, country: choice.country)]
                let sync = try await context.connection?.status()
                if json {
                    return try Terminal.json(
                        StatusOutput(
                            active: audits.contains(where: \.isActive),
                            audit: audits.count == 1 ? audits[0] : nil,
                            audits: audits.count > 1 ? audits : nil,
                            sync: sync.map(OutboxOutput.init)))
                }
                if audits.isEmpty { Terminal.line("No audit is running. Start one with `audit-station audit start --country CC`.") }
                for audit in audits { for line in AuditText.session(audit) { Terminal.line(line) } }
                if let sync {
                    Terminal.line(
                        "Connected to \(sync.server): \(sync.pendingScans) scans waiting to sync, \(sync.syncedScans) synced, \(sync.rejectedScans) refused"
                    )
                    if sync.pendingVoids > 0 { Terminal.line("  \(sync.pendingVoids) voids made offline waiting to sync") }
                    Terminal.line("  Last sync   \(sync.lastSyncAt.map(ISOTime.string) ?? "never")")
                    if let error = sync.lastError { Terminal.line("  Last error  \(error)") }
                    for refused in sync.rejected { Terminal.line("  refused: \(refused)") }
                }
            }
        }
    }

    struct VoidScan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "void",
            abstract: "Undo a mistaken scan of a running audit: the void is kept in the trail, and the counts are corrected.",
            discussion: "SCAN_ID is the scan's id, as `audit scans` lists it.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The id of the scan to void.") var scanID: String
        @Option(help: "Why the scan is voided (kept in the trail).") var reason: String?
        @Option(name: .customLong("audit"), help: "The audit the scan must belong to.") var auditID: String?
        @Option(help: "Who voids it (default: your login name).") var user: String?
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global, user: user)
                let result = try await context.audit.void(
                    VoidRequest(
                        scanId: scanID, auditId: auditID, reason: reason, deviceName: context.actor.station,
                        user: context.actor.user))
                if json { return try Terminal.json(result) }
                Terminal.line(result.message)
                Terminal.line("  \(AuditText.progress(result.progress))")
            }
        }
    }

    struct End: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "end", abstract: "End the running audit; it accepts no more scans.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var choice: AuditChoice
        @Option(help: "Who ends it (default: your login name).") var user: String?
        @Flag(help: "End it even though the server says stations may still hold scans of it (they still count when they arrive).")
        var force = false
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global, user: user)
                let audit = try await context.audit.resolveActive(auditID: choice.auditID, country: choice.country)
                let summary = try await context.audit.end(auditID: audit.id, by: context.actor, force: force)
                if let webhooks = context.webhooks { await WebhookCommands.tryOnce(webhooks) }
                if json { try Terminal.json(summary) } else { AuditText.summary(summary) }
                // A standalone station writes the found assets' last-audited times after the
                // summary is out, a batch a transaction; stopped meanwhile, it leaves the rest to
                // the next process (reads count them until then).
                if let local = context.audit as? SQLiteAuditService { _ = try? await local.catchUpLastAudited() }
            }
        }
    }
}

extension AuditStation.Audit {
    struct Reconcile: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reconcile",
            abstract: "Act on what an ended audit found: move misplaced assets, mark missing ones, register unknown tags.",
            discussion: """
                With --preview, lists the changes and changes nothing (no action named: every action). Otherwise applies the \
                chosen actions in one transaction; each change is one entry in the asset's history (`assets history TAG`). \
                A second run changes nothing. The audit's own report does not change.
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The ended audit's id.") var auditID: String
        @Flag(help: "List the changes; change nothing.") var preview = false
        @Flag(help: "Set each misplaced asset's location to where it was found.") var moveMisplaced = false
        @Flag(help: "Set each missing asset's status to MISSING (its earlier status is kept in its history).") var markMissing = false
        @Flag(help: "Register each unknown tag as a new asset of the audit's country, at the location it was found.") var registerUnknown = false
        @Flag(help: "Give each MISSING asset this audit found its status from before it was marked.") var restoreFound = false
        @Flag(help: "Set each counted accessory's total quantity to what was counted plus what is checked out.") var setQuantities = false
        @Flag(help: "Every action above.") var all = false
        @Option(help: "Who reconciles (default: your login name).") var user: String?
        @Flag var json = false

        var actions: Set<ReconcileAction> {
            if all { return Set(ReconcileAction.allCases) }
            var chosen = Set<ReconcileAction>()
            if moveMisplaced { chosen.insert(.moveMisplaced) }
            if markMissing { chosen.insert(.markMissing) }
            if registerUnknown { chosen.insert(.registerUnknown) }
            if restoreFound { chosen.insert(.restoreFound) }
            if setQuantities { chosen.insert(.setQuantities) }
            return chosen
        }

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global, user: user)
                let result = try await context.audit.reconcile(
                    ReconcileRequest(auditId: auditID, actions: actions, preview: preview, user: context.actor.user))
                if json { return try Terminal.json(result) }
                Terminal.line(result.message)
                guard !result.changes.isEmpty else { return }
                Terminal.table(
                    ["ACTION", "TAG", "FIELD", "FROM", "TO"],
                    result.changes.map { [$0.action.rawValue, $0.assetTag, $0.field, $0.from ?? "", $0.to ?? ""] })
                if result.truncated { Terminal.line("… and \(result.total - result.changes.count) more (see `assets history TAG`)") }
            }
        }
    }
}

/// `audit status --json`: `{active, audit}`, or `{active, audits}` when several run; a
/// connected station adds `sync`.
struct StatusOutput: Encodable {
    var active: Bool
    var audit: AuditSession?
    var audits: [AuditSession]?
    var sync: OutboxOutput?
}

/// The outbox of a connected station, for `audit status --json`.
struct OutboxOutput: Encodable {
    var server: String
    var pendingScans: Int
    var syncedScans: Int
    var rejectedScans: Int
    var pendingVoids: Int
    var lastSyncAt: Date?
    var lastError: String?

    init(_ status: ConnectedStatus) {
        pendingVoids = status.pendingVoids
        server = status.server
        pendingScans = status.pendingScans
        syncedScans = status.syncedScans
        rejectedScans = status.rejectedScans
        lastSyncAt = status.lastSyncAt
        lastError = status.lastError
    }
}
