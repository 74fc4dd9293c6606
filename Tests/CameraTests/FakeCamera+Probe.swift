import CameraTestSupport
import Foundation
import Testing

/// `camera-probe` in a child process with the emulated camera preloaded.
extension FakeCamera {
    /// Runs the probe until the camera stalls (the playlist ended) or `seconds` pass.
    func probe(
        config: [String: Any], seconds: Double = 60, exitOnStall: Bool = true,
        preload: Bool = true
    ) async throws -> ProbeOutput {
        var camera = config
        camera["device"] = camera["device"] ?? device
        let json = String(decoding: try JSONSerialization.data(withJSONObject: camera), as: UTF8.self)
        var env = environment
        if preload { env["LD_PRELOAD"] = library.path }
        var arguments = ["--config", json, "--seconds", "\(seconds)"]
        if exitOnStall { arguments.append("--exit-on-stall") }
        let output = try await Self.run(Self.probePath, arguments, environment: env)
        return try ProbeOutput(lines: output)
    }

    /// `camera-probe --list`: the catalogue's description of the emulated device.
    func list() async throws -> [String: Any] {
        var env = environment
        env["LD_PRELOAD"] = library.path
        let output = try await Self.run(Self.probePath, ["--list", device], environment: env)
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    static var probePath: String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("camera-probe").path
    }

}
