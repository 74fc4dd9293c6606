import ArgumentParser
import DocumentKit
import Foundation
import InventoryCore
import Station

extension LabelSymbology: ExpressibleByArgument {}
extension LabelLayout: ExpressibleByArgument {}
extension LabelFormat: ExpressibleByArgument {}
extension CommandLabel: ExpressibleByArgument {}

extension AuditStation.Assets {
    struct Labels: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "labels",
            abstract: "Print asset labels: a PDF of label sheets (or a roll), or ZPL for a Zebra printer.",
            discussion: """
                Name the assets by tag, by --country (and --location), or as --audit ID --unknown (the identifiers
                the audit scanned that no asset has). Each label holds the symbol, the tag in text and the name cut
                to fit. Layouts: a4-3x8 (70 x 36 mm), a4-4x10 (48.5 x 25.4 mm), letter-3x10 (2 5/8 x 1 in),
                roll-62x29 (one 62 x 29 mm label a page). A tag too long for the symbology on the layout gets no label:
                it is named on standard error, and the other labels are made (the command fails only when none can be).
                --command undo prints the command label CMD:UNDO instead: scanned on the kiosk it opens the undo of
                the last scan, and scanned again it confirms; it is never recorded as a tag.
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Asset tags (or serial numbers).") var tags: [String] = []
        @Option(help: "Every asset of this country.") var country: String?
        @Option(help: "With --country: only the assets at this location.") var location: String?
        @Option(name: .customLong("audit"), help: "With --unknown: the audit whose unknown identifiers to label.") var auditID: String?
        @Flag(help: "The identifiers the audit scanned that no asset has.") var unknown = false
        @Option(help: "qr, datamatrix or code128.") var symbology: LabelSymbology
        @Option(help: "a4-3x8, a4-4x10, letter-3x10 or roll-62x29.") var layout: LabelLayout
        @Option(help: "pdf or zpl.") var format: LabelFormat = .pdf
        @Option(help: "Write to this file instead of standard output.") var output: String?
        @Option(help: "A command label instead of asset labels: undo (CMD:UNDO, the kiosk's Undo last scan).") var command: CommandLabel?

        func validate() throws {
            if command != nil, !tags.isEmpty || country != nil || location != nil || auditID != nil || unknown {
                throw ValidationError("--command prints a command label alone: name no tags, --country, --location, --audit or --unknown")
            }
        }

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global)
                let wanted: [Label]
                if let command {
                    wanted = [command.label]
                } else {
                    let selection = LabelSelection(tags: tags, country: country, location: location, auditID: auditID, unknown: unknown)
                    wanted = try await selection.labels(assets: context.assets, audits: context.audit)
                }
                let sheet = LabelSheet(symbology: symbology, layout: layout)
                // A tag that does not fit its label is named; the others' labels are made.
                let (labels, refused) = sheet.partition(wanted)
                guard !labels.isEmpty else {
                    throw LabelError.invalid(refused.isEmpty ? "no labels: no asset matched" : LabelRefusal.summary(refused))
                }
                if !refused.isEmpty {
                    Terminal.error("Not made: \(refused.count) label\(refused.count == 1 ? "" : "s"): \(LabelRefusal.summary(refused))")
                }
                try LabelFile.write(to: output) { sink in
                    switch format {
                    case .pdf: try sheet.pdf(labels, to: sink)
                    case .zpl: try sink(Data(try sheet.zpl(labels).utf8))
                    }
                }
                if let output {
                    let pages = (labels.count + layout.labelsPerPage - 1) / layout.labelsPerPage
                    Terminal.error(
                        "Wrote \(labels.count) \(symbology.rawValue) label\(labels.count == 1 ? "" : "s") (\(layout.rawValue)"
                            + (format == .pdf ? ", \(pages) page\(pages == 1 ? "" : "s")" : "") + ") to \(output)")
                }
            }
        }
    }
}

/// Writes labels to a file (through a temporary file renamed into place) or to standard output.
enum LabelFile {
    static func write(to path: String?, _ body: (@escaping (Data) throws -> Void) throws -> Void) throws {
        guard let path else {
            try body { data in Terminal.write(STDOUT_FILENO, bytes: [UInt8](data)) }
            return
        }
        let url = URL(fileURLWithPath: path)
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil), let handle = try? FileHandle(forWritingTo: partial) else {
            throw StationError.io("cannot write \(path): check that the folder exists and may be written")
        }
        do {
            try body { data in try handle.write(contentsOf: data) }
            try handle.close()
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            try FileManager.default.moveItem(at: partial, to: url)
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }
}
