import ArgumentParser
import Foundation
import Station
import InventoryCore
import InventoryStore

extension AuditStation.Assets {
    struct Archive: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "archive", abstract: "Archive an asset (status ARCHIVED; it leaves future audits).")
        @OptionGroup var global: GlobalOptions
        @Argument var asset: String

        func run() async throws {
            try await runReportingErrors { try await AuditStation.Assets.remove(asset, mode: .archive, global: global) }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete an asset for good (archive keeps its history).")
        @OptionGroup var global: GlobalOptions
        @Argument var asset: String

        func run() async throws {
            try await runReportingErrors { try await AuditStation.Assets.remove(asset, mode: .delete, global: global) }
        }
    }

    /// Archives or deletes the asset with this id, tag or serial number.
    static func remove(_ reference: String, mode: DeleteMode, global: GlobalOptions) async throws {
        let context = try StationContext.make(global)
        let target = try await resolveAsset(reference, in: context)
        _ = try await context.assets.delete(id: target.id, mode: mode)
        Terminal.line("\(mode == .archive ? "Archived" : "Deleted") \(target.assetTag) (\(target.name))")
    }

    struct Transfer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "transfer", abstract: "Assign an asset to a customer.")
        @OptionGroup var global: GlobalOptions
        @Argument var asset: String
        @Option(name: .customLong("customer-id"), parsing: .unconditional, help: "The customer who receives the asset.") var customerId: Int64
        @Option var reason: String?
        @Option var notes: String?
        @Option(name: .customLong("effective-date"), help: "YYYY-MM-DD.") var effectiveDate: String?
        @Flag var json = false

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global)
                let target = try await resolveAsset(asset, in: context)
                let moved = try await context.assets.transfer(
                    id: target.id,
                    TransferRequest(
                        customerId: customerId, reason: reason, notes: notes, effectiveDate: effectiveDate))
                if json { return try Terminal.prettyJSON(moved) }
                Terminal.line("Transferred \(moved.assetTag) to customer \(customerId)\(moved.customer.map { " (\($0))" } ?? "")")
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import assets from CSV: every row or none.",
            discussion:
                "The header row names the columns with API field names: \(AssetImport.columns.joined(separator: ", ")). asset_tag, name and country are required."
        )
        @OptionGroup var global: GlobalOptions
        @OptionGroup var postgres: PostgresOption
        @Argument(help: "The CSV file.") var file: String

        func run() async throws {
            try await runReportingErrors {
                let config = try StationConfig.load(path: global.config)
                guard let handle = FileHandle(forReadingAtPath: file) else {
                    throw StationError.io("cannot read \(file): no such file, or not allowed")
                }
                let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int ?? 0
                Terminal.error("Importing \(file); nothing is stored unless every row is valid…")
                let progress = ProgressLine("Read", unit: ProgressLine.bytes)
                let blocks = FileBlocks.stream(handle) { read in progress.update(read, max(size, read)) }
                let count: Int
                do {
                    // A PostgreSQL server's inventory when --postgres (or postgres.url) names one;
                    // else the station's own (its file, or its server when connected).
                    let database = try ServerDatabase(postgres, global: global, config: config)
                    if case .postgres = database {
                        count = try await database.withBackend(config: config, maxConnections: 2) { backend in
                            try await backend.assets.importAssets(csv: blocks) { _ in }
                        }
                    } else {
                        let context = try StationContext.make(global)
                        if !context.isConnected, let database = context.database {
                            // A command that ends next: the search index's catch-up is left to the
                            // next process that serves the file (it would be cut off here), and the
                            // rows go into the file once, through a rollback journal, when no other
                            // process has it open (else through the WAL, checkpointed before the
                            // command ends, so that the next command or scan to write does not copy them).
                            let assets = SQLiteAssetService(
                                database: database, caseSensitive: context.config.caseSensitiveTags, searchCatchUp: false)
                            (count, _) = try await database.writingAlone { try await assets.importAssets(csv: blocks) { _ in } }
                        } else {
                            count = try await context.assets.importAssets(csv: blocks) { _ in }
                        }
                    }
                } catch let error as InventoryError {
                    guard case .invalid(let problems) = error else { throw error }
                    throw ImportFailure(file: file, problems: problems)
                }
                Terminal.line("Imported \(count) \(count == 1 ? "asset" : "assets") from \(file)")
            }
        }
    }
}

/// A failed import: nothing was stored, and every problem is listed by line.
struct ImportFailure: Error, LocalizedError {
    var file: String
    var problems: InventoryCore.ValidationError

    var errorDescription: String? {
        let lines = problems.fields.sorted { lineNumber($0.key) < lineNumber($1.key) }
            .flatMap { key, messages in messages.map { "  \(key): \($0)" } }
        return "nothing was imported from \(file):\n" + lines.joined(separator: "\n")
    }

    private func lineNumber(_ key: String) -> Int { Int(key.split(separator: " ").last ?? "") ?? Int.max }
}
