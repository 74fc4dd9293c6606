import ArgumentParser
import AuditClient
import Foundation
import InventoryCore
import Scanning

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
                let recorder = ScanRecorder(service: context.audit, audit: audit, actor: context.actor, json: json)
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
                            try await loop.run(onCode: { code in
                                await recorder.record(code.text, source: .camera, origin: device)
                            }, onEvent: { [json] event in
                                // Printed here, in the order the loop reports them.
                                if !json { Terminal.error(Terminal.paint("camera: \(event)", .dim)) }
                            })
                        }
                    }
                    if !images.isEmpty {
                        let paths = images, decoder = context.config.decoder
                        group.addTask { try await Self.scanImages(paths, decoder: decoder, into: recorder) }
                    }
                    if readStdin {
                        group.addTask { await Self.scanStandardInput(into: recorder) }
                    }
                    // The camera runs until interrupted; other sources end when they run out.
                    try await group.waitForAll()
                }
                let (recorded, failures, progress, stopped) = await (recorder.recorded, recorder.failures, recorder.lastProgress, recorder.stopped)
                if !json { Terminal.error("\(recorded) scans recorded; \(AuditText.progress(progress)).") }
                if let remote = context.audit as? ConnectedAuditService {
                    // Push what is waiting before the process ends; what cannot go now stays in
                    // the outbox for `audit-station sync`.
                    let report = await remote.syncNow()
                    if !json {
                        Terminal.error("Synced \(report.pushed) scans; \(report.remaining) waiting\(report.stoppedBy.map { " (\($0))" } ?? "").")
                    }
                }
                if let stopped { throw stopped }
                if failures > 0 { throw ExitCode(2) }
            }
        }

        static func scanStandardInput(into recorder: ScanRecorder) async {
            for await line in StdinLines() {
                switch line {
                case .text(let number, let text):
                    // Empty lines (a stray Enter) are skipped, not errors.
                    if text.trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters)).isEmpty { continue }
                    await recorder.record(text, source: .manual, origin: Terminal.stdinIsTTY ? nil : "line \(number)")
                case .notUTF8(let number):
                    await recorder.reject("the text is not UTF-8; nothing was recorded", origin: "line \(number)")
                case .tooLong(let number, let bytes):
                    await recorder.reject("\(bytes) bytes is far too long for a tag (limit \(Identifier.maxBytes)); nothing was recorded", origin: "line \(number)")
                }
                if await recorder.stopped != nil { return }
            }
        }

        static func scanImages(_ paths: [String], decoder: DecoderConfig, into recorder: ScanRecorder) async throws {
            for await result in decodeImages(paths: paths, config: decoder) {
                switch result.outcome {
                case .success(let codes) where codes.isEmpty:
                    await recorder.note("\(result.path): no code found")
                case .success(let codes):
                    for code in codes { await recorder.record(code.text, source: .image, origin: result.path) }
                case .failure(let error):
                    await recorder.reject(error.localizedDescription, origin: nil, code: "BAD_IMAGE")
                }
                if await recorder.stopped != nil { return }
            }
        }
    }
}
