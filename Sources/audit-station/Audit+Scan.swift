import ArgumentParser
import AuditClient
import Foundation
import InventoryCore
import Scanning
import Station

extension AuditStation.Audit {
    struct Scan: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scan",
            abstract: "Scan tags into the running audit.",
            discussion: """
                Tags given on the command line are scanned in order, as if typed. With no source it \
                reads identifiers from standard input, one a line: type them, use a keyboard-wedge \
                barcode scanner, or pipe a file. --images decodes files and folders; \
                --device reads a webcam (standard input stays open for manual entry beside it; stop \
                with Ctrl-C). Each outcome is printed only after the scan is stored. A connected \
                station decides each scan from its local copy of the audit and pushes its outbox \
                beside; on exit, scans not yet on the server stay in the outbox (one line says how \
                many) unless --sync-before-exit waits for them.
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var choice: AuditChoice
        @Argument(help: "Tags to scan, in order, as if typed (before any --images; standard input is then not read).") var tags: [String] = []
        @Option(parsing: .upToNextOption, help: "Image files or folders to decode and scan.") var images: [String] = []
        @Option(help: "A V4L2 camera, such as /dev/video0.") var device: String?
        @Option(help: "Who is scanning (default: your login name).") var user: String?
        @Option(
            help: ArgumentHelp(
                "Where the station stands (default: station.location of the configuration); a scanned location label (LOC:Dock B) moves it.",
                valueName: "location"))
        var location: String?
        @Flag(help: "Print one JSON object a line: {identifier, status, message, asset, progress}.") var json = false
        @Option(
            name: .customLong("sync-before-exit"),
            help: ArgumentHelp(
                "Connected: on exit, push the outbox for up to this many seconds before leaving (default 0: leave at once).",
                valueName: "seconds"))
        var syncBeforeExit: Double = 0

        func validate() throws {
            guard syncBeforeExit.isFinite, (0...86_400).contains(syncBeforeExit) else {
                throw ArgumentParser.ValidationError("--sync-before-exit takes seconds from 0 to 86400, not \(syncBeforeExit)")
            }
        }

        func run() async throws {
            try await runReportingErrors {
                var context = try StationContext.make(global, user: user)
                if let location { context.config.station.location = try checkedLocation(location) }
                let audit = try await context.heldOrActiveAudit(choice)
                if let connection = context.connection {
                    // Beside the scans, never in front of them: push what earlier runs left, and
                    // learn whether the audit is still running.
                    await connection.startSync()
                    let auditID = audit.id
                    Task.detached { await connection.prepare(auditID: auditID) }
                    Task.detached { await connection.refreshHeld() }
                }
                let printer = ScanPrinter(json: json)
                let session = ScanSession(context: context, audit: audit) { printer.show($0) }
                let readStdin = images.isEmpty && tags.isEmpty
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
                    if !tags.isEmpty || !images.isEmpty {
                        // One after the other: the tags as given, then the images.
                        let tags = tags, paths = images, decoder = context.config.decoder
                        group.addTask {
                            await session.scanArguments(tags)
                            if !paths.isEmpty { await session.scanImages(paths, decoder: decoder) }
                        }
                    }
                    if readStdin {
                        group.addTask { await session.scanLines(LineReader(), numbered: !Terminal.stdinIsTTY) }
                    }
                    // The camera runs until interrupted or the audit ends; other sources end when they run out.
                    try await group.waitForAll()
                }
                let (recorded, failures, progress, stopped) = await (session.recorded, session.failures, session.lastProgress, session.stopped)
                if !json { Terminal.error("\(recorded) scans recorded; \(AuditText.progress(progress)).") }
                // A connected station leaves at once unless asked to wait: what is not on the server
                // yet stays in the durable outbox for the next run, `sync` or the kiosk.
                if let left = await session.finish(waitingUpTo: .milliseconds(Int64(syncBeforeExit * 1000))) {
                    if syncBeforeExit > 0 && !json { Terminal.error("Synced \(left.pushed) scans before exit.") }
                    if let notice = left.notice { Terminal.error(notice) }
                }
                if let stopped { throw stopped }
                if failures > 0 { throw ExitCode(2) }
            }
        }
    }
}
