import ArgumentParser
import AuditAPI
import DocumentKit
import Foundation
import Station
import InventoryCore

extension AuditList: ExpressibleByArgument {}
extension ReportFormat: ExpressibleByArgument {}

extension AuditStation.Audit {
    struct Details: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "details", abstract: "List an audit's assets: all, scanned, missing, unexpected or misplaced.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var choice: AuditChoice
        @Argument(help: "all, scanned, missing, unexpected or misplaced.") var list: AuditList
        @OptionGroup var paging: PageOptions

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global)
                let audit = try await latestAudit(context, auditID: choice.auditID, country: choice.country)
                let page = try await context.audit.details(auditID: audit.id, list: list, query: paging.query)
                if paging.json { return try Terminal.json(ListResponse(page, key: "assets")) }
                Terminal.table(AuditText.entryHeader, page.items.map(AuditText.entry))
                Terminal.line(page.pagination.footer)
            }
        }
    }

    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Export an audit's report as CSV, JSON or a PDF to sign (running or ended).",
            discussion: "The PDF is drawn here from the JSON report's rows, also on a connected station (from the server's JSON report).")
        @OptionGroup var global: GlobalOptions
        @Option(help: "csv, json or pdf.") var format: ReportFormat
        @Option(
            help: "Write to this file, or into this folder as audit-<COUNTRY>-<YYYY-MM-DD>-<first 8 of id>.<ext>, instead of standard output.")
        var output: String?
        @Option(name: .customLong("audit"), help: "The audit (default: the running one, else the latest).") var auditID: String?
        @Option(help: "The country whose running audit to report.") var country: String?
        @Flag(help: "PDF: list every missing asset and voided scan (by default at most 500 a location, the rest counted and left to the CSV).")
        var full = false

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global)
                let audit = try await latestAudit(context, auditID: auditID, country: country)
                var isFolder: ObjCBool = false
                let output = output.map { path in
                    FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
                        ? URL(fileURLWithPath: path).appendingPathComponent(ReportSummary.fileName(audit, format: format)).path : path
                }
                try await ReportFile.write(audit: audit.id, format: format, service: context.audit, full: full, to: output)
                if let output { Terminal.error("Wrote the \(format.rawValue.uppercased()) report of audit \(audit.id) to \(output)") }
            }
        }
    }

    struct Scans: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scans", abstract: "An audit's scan trail: who scanned what, when, where, how, and the outcome.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var choice: AuditChoice
        @OptionGroup var paging: PageOptions

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global)
                let audit = try await latestAudit(context, auditID: choice.auditID, country: choice.country)
                let page = try await context.audit.scans(auditID: audit.id, query: paging.query)
                if paging.json { return try Terminal.json(ListResponse(page, key: "scans")) }
                // The scan id is what `audit void` takes; a voided scan says who voided it, and why;
                // a late one when it reached the server, after the audit's end.
                Terminal.table(
                    ["SCANNED AT", "SCAN ID", "IDENTIFIER", "OUTCOME", "STATION", "USER", "SOURCE", "PHOTO", "VOIDED", "LATE"],
                    page.items.map {
                        [
                            ISOTime.string($0.scannedAt), $0.scanId, $0.identifier, $0.status.rawValue, $0.station, $0.user, $0.source.rawValue,
                            $0.hasPhoto == true ? "yes" : "",
                            $0.voided.map { "by \($0.user) at \($0.station)\($0.reason.map { ": \($0)" } ?? "")" } ?? "",
                            $0.late == true ? "arrived \(ISOTime.string($0.recordedAt))" : ""
                        ]
                    })
                Terminal.line(page.pagination.footer)
            }
        }
    }

    struct Photo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "photo",
            abstract: "Save the camera's photo of a scan (kept for unexpected, unknown and misplaced camera scans).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The scan's id, as `audit scans` lists it.") var scanID: String
        @Option(name: .customLong("audit"), help: "The scan's audit (needed for another station's scan on a connected station).")
        var auditID: String?
        @Option(help: "The JPEG file to write.") var output: String

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global)
                guard let store = context.audit as? any ScanPhotoService else {
                    throw StationError.usage("this station's audit service keeps no photos")
                }
                guard let photo = try await store.photo(scanID: scanID, auditID: auditID) else {
                    throw InventoryError.notFound("photo of scan \(scanID): the scan has none")
                }
                do { try photo.jpeg.write(to: URL(fileURLWithPath: output)) } catch {
                    throw StationError.io("cannot write \(output): \(error.localizedDescription)")
                }
                Terminal.error("Wrote the photo of scan \(scanID) (\(photo.jpeg.count) bytes, taken \(ISOTime.string(photo.takenAt))) to \(output)")
            }
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "history", abstract: "Past and running audits, newest first.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "Only the audits of this country (ISO 3166-1 alpha-2, such as SG).") var country: String?
        @Option(parsing: .unconditional, help: "The page to show (from 1).") var page = 1
        @Flag(help: "Print JSON.") var json = false

        func validate() throws { try checkPage(page) }

        func run() async throws {
            try await runReportingErrors {
                let result = try await StationContext.make(global).audit.history(country: country, query: ListQuery(page: page))
                if json { return try Terminal.json(ListResponse(result, key: "audits")) }
                Terminal.table(
                    ["AUDIT", "COUNTRY", "STARTED", "BY", "ENDED", "SCANNED", "TOTAL", "UNEXPECTED"],
                    result.items.map {
                        [
                            $0.id, $0.country, ISOTime.string($0.startedAt), $0.startedBy, $0.endedAt.map(ISOTime.string) ?? "running",
                            String($0.scannedCount), String($0.totalAssets), String($0.unexpectedCount)
                        ]
                    })
                Terminal.line(result.pagination.footer)
            }
        }
    }
}

/// The audit named, else the running one, else the most recent one.
func latestAudit(_ context: StationContext, auditID: AuditID?, country: String?) async throws -> AuditSession {
    if let auditID { return try await context.audit.audit(id: auditID) }
    do {
        return try await context.audit.resolveActive(country: country)
    } catch InventoryError.noActiveAudit(let country) {
        let code = try country.map { try Country.normalize($0) }
        guard let latest = try await context.audit.history(country: code, query: ListQuery(perPage: 1)).items.first else {
            throw InventoryError.notFound("audit (none has been run\(code.map { " in \($0)" } ?? ""))")
        }
        return latest
    }
}

/// `{"assets": […], "pagination": {…}}`, the shape of the API's audit lists.

/// Writes a report to a file (through a temporary file renamed into place, so a failed
/// export never leaves half a report) or to standard output.
enum ReportFile {
    static func write(audit: AuditID, format: ReportFormat, service: any AuditService, full: Bool = false, to path: String?) async throws {
        /// The PDF is drawn from the JSON report's stream (DocumentKit); CSV and JSON come from the service as they are.
        func produce(_ output: @escaping @Sendable (Data) throws -> Void) async throws {
            if format == .pdf {
                try await AuditReportPDF.write(auditID: audit, service: service, full: full, to: output)
            } else {
                try await service.report(auditID: audit, format: format, to: output)
            }
        }
        guard let path else {
            try await produce { data in Terminal.write(STDOUT_FILENO, bytes: [UInt8](data)) }
            return
        }
        let url = URL(fileURLWithPath: path)
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: partial)
        else {
            throw StationError.io("cannot write \(path): check that the folder exists and may be written")
        }
        do {
            try await produce { data in try handle.write(contentsOf: data) }
            try handle.synchronize()
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
