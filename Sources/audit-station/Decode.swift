import ArgumentParser
import Foundation
import Station
import Scanning

extension AuditStation {
    /// `decode FILE… [--json]`: the codes in image files and folders, like zbarimg.
    struct Decode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decode",
            abstract: "Decode barcodes and QR codes in PNG, JPEG, WebP, HEIC, AVIF and PGM/PPM images (files or folders).",
            discussion: """
                Exits 1 when a file could not be read; every other file is still decoded. A photo \
                over 40 megapixels is read at 1/2, 1/4 or 1/8 of its size; "points" are in the file's pixels.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "Image files, or folders whose images (sorted by name) are decoded.")
        var files: [String]

        @Flag(help: "Print one JSON object a line per image: {\"file\", \"codes\": [{\"text\", \"symbology\", \"points\", \"engines\"}]}.")
        var json = false

        func run() async throws {
            var failures = 0
            try await runReportingErrors {
                failures = try decode(config: StationConfig.load(path: global.config).decoder)
            }
            if failures > 0 { throw ExitCode(1) }
        }

        private func decode(config: DecoderConfig) throws -> Int {
            var failures = 0
            // Every core decodes; results come out in the order of the files and folders.
            ParallelImageDecode(paths: files, config: config).run { result in
                if case .failure = result.outcome { failures += 1 }
                if json {
                    Terminal.line(result.jsonLine())
                } else if case .failure = result.outcome {
                    FileHandle.standardError.write(Data((result.textLines().joined(separator: "\n") + "\n").utf8))
                } else {
                    result.textLines().forEach { Terminal.line($0) }
                }
            }
            return failures
        }
    }
}
