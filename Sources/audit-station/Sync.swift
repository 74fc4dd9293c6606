import ArgumentParser
import AuditClient
import Foundation
import InventoryCore
import Station

extension AuditStation {
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "sync", abstract: "Push the scans waiting in the outbox to the server now.")
        @OptionGroup var global: GlobalOptions
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global)
                guard let connection = context.connection else {
                    throw StationError.usage("This station is not logged in to a server; run `audit-station login --server URL --email EMAIL` first")
                }
                let report = await connection.syncNow()
                let status = try await connection.status()
                if json {
                    try Terminal.json(
                        SyncOutput(
                            pushed: report.pushed, rejected: report.rejected, pending: status.pendingScans,
                            voidsPushed: report.voidsPushed, voidsPending: status.pendingVoids,
                            lastSyncAt: status.lastSyncAt, error: report.stoppedBy))
                } else {
                    Terminal.line(
                        "Pushed \(report.pushed) scans to \(status.server); \(status.pendingScans) waiting, \(status.rejectedScans) refused by the server"
                    )
                    if report.voidsPushed + status.pendingVoids + report.voidsRejected > 0 {
                        Terminal.line(
                            "Voids made offline: \(report.voidsPushed) sent, \(status.pendingVoids) waiting, \(report.voidsRejected) refused by the server"
                        )
                    }
                    if let last = status.lastSyncAt { Terminal.line("Last sync: \(ISOTime.string(last))") }
                    for line in status.rejected { Terminal.line("  refused: \(line)") }
                }
                if report.needsLogin || status.pendingScans > 0 || status.pendingVoids > 0 {
                    throw InventoryError.unavailable(
                        report.stoppedBy ?? "\(status.pendingScans) scans and \(status.pendingVoids) voids are still waiting")
                }
            }
        }
    }
}

/// `sync --json`.
struct SyncOutput: Encodable {
    var pushed: Int
    var rejected: Int
    var pending: Int
    /// Voids made offline: sent by this sync, and still waiting.
    var voidsPushed: Int
    var voidsPending: Int
    var lastSyncAt: Date?
    var error: String?
}
