import Foundation
import TestKit

/// Drives the emulated V4L2 device (Tests/FakeCamera) for end-to-end tests: builds the
/// LD_PRELOAD library and draws frames; the camera and kiosk tests then run a child process
/// with the library preloaded (never the test process itself). Removes its files when released.
public final class FakeCamera {
    public static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("FakeCamera")

    public let directory: URL
    public let library: URL
    public var device = "/dev/video" + String(Int.random(in: 40...99))
    public var environment: [String: String] = [:]

    public init() async throws {
        directory = try Scratch.folder("fakecam")
        library = try await Self.builtLibrary.value
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The LD_PRELOAD library, built once for the test process: every camera shares it.
    static let builtLibrary = Task {
        let library = try Scratch.folder("fakecam-library").appendingPathComponent("libfakev4l2.so")
        let cFiles = try FileManager.default.contentsOfDirectory(atPath: sources.path)
            .filter { $0.hasSuffix(".c") }.map { sources.appendingPathComponent($0).path }
        try await run(
            "/usr/bin/env",
            ["cc", "-O2", "-shared", "-fPIC", "-o", library.path] + cFiles + ["-ldl", "-lpthread", "-lturbojpeg"])
        return library
    }

    /// Draws a frame with the given codes (`make_frame.py` arguments such as ["--qr", "TAG-1"]).
    /// Frames are drawn once for the test process and shared: the same size and codes give the
    /// same file.
    public func frame(_ name: String, width: Int = 640, height: Int = 480, _ codes: [String] = []) async throws -> String {
        let key = "\(width)x\(height) " + codes.joined(separator: "\u{1F}")
        let drawing = Self.frames.update { frames in
            if let drawing = frames[key] { return drawing }
            let drawing = Task { () throws -> String in
                let path = try Scratch.folder("fakecam-frame").appendingPathComponent(name + ".pgm").path
                try await Self.run(
                    "/usr/bin/env",
                    [
                        "python3", Self.sources.appendingPathComponent("make_frame.py").path,
                        "--width", "\(width)", "--height", "\(height)", "--out", path
                    ] + codes)
                return path
            }
            frames[key] = drawing
            return drawing
        }
        return try await drawing.value
    }

    private static let frames = Locked<[String: Task<String, any Error>]>([:])

    /// Writes the playlist: each frame path shown `count` times in order.
    /// `atEnd`: what the camera does after the last frame: "stall" (no more frames), "hold" (the
    /// last frame again and again) or "loop" (from the first frame again).
    public func play(_ scenes: [(String, Int)], fps: Int, format: String = "GREY", atEnd: String = "stall") throws {
        let playlist = directory.appendingPathComponent("playlist.txt")
        try scenes.map { "\($0.0) *\($0.1)" }.joined(separator: "\n").write(to: playlist, atomically: true, encoding: .utf8)
        environment["FAKEV4L2_FRAMES"] = playlist.path
        environment["FAKEV4L2_FPS"] = "\(fps)"
        environment["FAKEV4L2_FORMAT"] = format
        environment["FAKEV4L2_AT_END"] = atEnd
        environment["FAKEV4L2_DEVICE"] = device
        environment["FAKEV4L2_LOG"] = directory.appendingPathComponent("device.log").path
    }

    public var deviceLog: String {
        (try? String(contentsOf: directory.appendingPathComponent("device.log"), encoding: .utf8)) ?? ""
    }

    /// Runs a tool to its end (through swift-subprocess); its standard output, or an error with
    /// its standard error when it failed.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> String {
        let output = try await Child.run(tool, arguments, environment: environment)
        guard output.status == 0 else {
            throw FakeCameraError.failed(
                tool: URL(fileURLWithPath: tool).lastPathComponent + " " + (arguments.first ?? ""),
                status: output.status, stderr: output.stderr)
        }
        return output.stdout
    }
}

public enum FakeCameraError: Error, CustomStringConvertible {
    case failed(tool: String, status: Int32, stderr: String)
    case badOutput(String)

    public var description: String {
        switch self {
        case .failed(let tool, let status, let stderr): "\(tool) exited with \(status): \(stderr)"
        case .badOutput(let line): "camera-probe printed an unexpected line: \(line)"
        }
    }
}
