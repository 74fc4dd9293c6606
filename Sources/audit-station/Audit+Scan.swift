import ArgumentParser
import AuditClient
import Foundation
import InventoryCore
import Scanning
import Station

extension AuditStation.Audit {
    struct Scan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Scan tags into the running audit.",
            discussion: """
                With no source it reads identifiers from standard input, one a line: type them, use a \
                keyboard-wedge barcode scanner, or pipe a file. --images decodes files and folders; \
                --device reads a webcam (standard input stays open for manual entry beside it; stop \
                with Ctrl-C). Each outcome is printed only after the scan is stored.
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var choice: AuditChoice
        @Option(parsing: .upToNextOption, help: "Image files or folders to decode and scan.") var images: [String] = []
        @Option(help: "A V4L2 camera, such as /dev/video0.") var device: String?
        @Option(help: "Who is scanning (default: your login name).") var user: String?
        @Flag(help: "Print one JSON object a line: {identifier, status, message, asset, progress}.") var json = false

        func run() async throws {
            try await runReportingErrors {
                let context = try StationContext.make(global, user: user)
                let audit = try await context.audit.resolveActive(auditID: choice.auditID, country: choice.country)
                let printer = ScanPrinter(json: json)
                let session = ScanSession(context: context, audit: audit) { printer.show($0) }
                let readStdin = images.isEmpty
                if !json && Terminal.stdinIsTTY && readStdin {
                    Terminal.error("Scanning into audit \(audit.id) of \(audit.country): \(AuditText.progress(audit.progress)).")
                    Terminal.error("Type or scan a tag and press Enter; Ctrl-D ends\(device == nil ? "" : ", Ctrl-C stops the camera").")
                }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    if let device {
                        var camera = context.config.camera
                        camera.device = device
                        let loop = try ScanLoop(config: camera, decoderConfig: context.config.decoder)
                        group.addTask {
                            try await session.scanCamera(loop) { [json] event in
                                // Printed here, in the order the loop reports them.
                                if !json { Terminal.error(Terminal.paint("camera: \(event)", .dim)) }
                            }
                        }
                    }
                    if !images.isEmpty {
                        let paths = images, decoder = context.config.decoder
                        group.addTask { await session.scanImages(paths, decoder: decoder) }
                    }
                    if readStdin {
                        group.addTask { await session.scanLines(LineReader(), numbered: !Terminal.stdinIsTTY) }
                    }
                    // The camera runs until interrupted or the audit ends; other sources end when they run out.
                    try await group.waitForAll()
                }
                let (recorded, failures, progress, stopped) = await (session.recorded, session.failures, session.lastProgress, session.stopped)
                if !json { Terminal.error("\(recorded) scans recorded; \(AuditText.progress(progress)).") }
                // A connected station pushes what is waiting before the process ends; what cannot
                // go now stays in the outbox for `audit-station sync`.
                if let report = await session.finish(), !json {
                    Terminal.error("Synced \(report.pushed) scans; \(report.remaining) waiting\(report.stoppedBy.map { " (\($0))" } ?? "").")
                }
                if let stopped { throw stopped }
                if failures > 0 { throw ExitCode(2) }
            }
        }
    }
}
