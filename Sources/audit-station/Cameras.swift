import ArgumentParser
import Foundation
import Scanning

extension AuditStation {
    struct Cameras: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cameras",
            abstract: "List the V4L2 cameras with their formats and frame sizes.",
            discussion: """
                With no argument it looks at every /dev/video* node and skips those that are not \
                capture devices (such as UVC metadata nodes). Exits non-zero when a named device \
                cannot be described.
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Devices to describe (default: every /dev/video*).") var devices: [String] = []
        @Flag(help: "Also list the formats libv4l2 converts to.") var emulated = false
        @Flag(help: "Print one JSON object a line: {device, card, driver, busInfo, formats: [{fourcc, description, emulated, sizes}]}.")
        var json = false

        func run() async throws {
            let named = !devices.isEmpty
            var described = 0
            for path in named ? devices : CameraCatalog.devicePaths() {
                do {
                    let camera = try CameraCatalog.describe(device: path, includeEmulated: emulated)
                    described += 1
                    print(json ? try Self.jsonLine(camera) : Self.text(camera))
                } catch {
                    if named || !Self.isNotCapture(error) {
                        FileHandle.standardError.write(Data("\(path): \(error.localizedDescription)\n".utf8))
                    }
                }
            }
            if described == 0 && !named && !json {
                FileHandle.standardError.write(Data("No V4L2 camera found.\n".utf8))
            }
            if named && described < devices.count { throw ExitCode.failure }
        }

        static func isNotCapture(_ error: any Error) -> Bool {
            if case .notACaptureDevice = error as? CameraError { return true }
            return false
        }

        static func jsonLine(_ camera: CameraDescription) throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(camera), as: UTF8.self)
        }

        static func text(_ camera: CameraDescription) -> String {
            var lines = ["\(camera.device): \(camera.card) (\(camera.driver), \(camera.busInfo))"]
            for format in camera.formats {
                let sizes = format.sizes.isEmpty ? "" : ": " + format.sizes.joined(separator: " ")
                lines.append("  \(format.fourcc) \(format.description)\(format.emulated ? " [converted]" : "")\(sizes)")
            }
            return lines.joined(separator: "\n")
        }
    }
}
