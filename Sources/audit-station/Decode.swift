import ArgumentParser
import Foundation
import Scanning

extension AuditStation {
    /// `decode FILE… [--json]`: the codes in image files and folders, like zbarimg.
    struct Decode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decode barcodes and QR codes in PNG, JPEG and PGM/PPM images (files or folders).",
            discussion: "Exits 1 when a file could not be read; every other file is still decoded.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "Image files, or folders whose images (sorted by name) are decoded.")
        var files: [String]

        @Flag(help: "Print one JSON object a line per image: {\"file\", \"codes\": [{\"text\", \"symbology\", \"points\"}]}.")
        var json = false

        func run() async throws {
            let config = try decoderConfig(path: global.config)
            var failures = 0
            for result in decodeImages(paths: files, config: config) {
                if case .failure = result.outcome { failures += 1 }
                if json {
                    print(result.jsonLine())
                } else if case .failure = result.outcome {
                    FileHandle.standardError.write(Data((result.textLines().joined(separator: "\n") + "\n").utf8))
                } else {
                    result.textLines().forEach { print($0) }
                }
            }
            if failures > 0 { throw ExitCode(1) }
        }

        /// The `"decoder"` object of the station configuration, or the defaults.
        private func decoderConfig(path: String?) throws -> DecoderConfig {
            guard let path else { return DecoderConfig() }
            struct Station: Decodable { var decoder: DecoderConfig? }
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                return try JSONDecoder().decode(Station.self, from: data).decoder ?? DecoderConfig()
            } catch let error as DecodingError {
                throw DecodeConfigError("the configuration \(path) is not valid: \(Self.describe(error))")
            } catch {
                throw DecodeConfigError("cannot read the configuration \(path): \(error.localizedDescription)")
            }
        }

        private static func describe(_ error: DecodingError) -> String {
            let context: DecodingError.Context
            switch error {
            case .dataCorrupted(let c), .keyNotFound(_, let c), .typeMismatch(_, let c), .valueNotFound(_, let c): context = c
            @unknown default: return error.localizedDescription
            }
            let key = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
                .joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
            return key.isEmpty ? context.debugDescription : "\(key): \(context.debugDescription)"
        }
    }
}

/// A configuration file that `decode` cannot use; the message names the file and the key.
private struct DecodeConfigError: LocalizedError {
    let errorDescription: String?
    init(_ message: String) { errorDescription = message }
}
