import Foundation
import Testing
import TestKit

/// Runs the built `audit-station` executable as a child process, as a person or a script would.
struct StationProcess {
    typealias Output = ChildOutput

    /// The executable next to the test bundle (swift test builds it because this target
    /// depends on it).
    static let executable: URL = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL
        ]
        for folder in candidates {
            let url = folder.appendingPathComponent("audit-station")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return candidates[0].appendingPathComponent("audit-station")
    }()

    /// A fresh folder with a database path in it, removed when the test process ends.
    static func scratch() throws -> (folder: URL, database: String) {
        let folder = Scratch.root.appendingPathComponent("audit-station-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return (folder, folder.appendingPathComponent("station.sqlite").path)
    }

    /// Runs to completion, feeding `input` on standard input. With `timeout`, a run still going
    /// then is killed and its output says `hung`: a command that must never hang is caught
    /// instead of hanging the tests.
    @discardableResult
    static func run(
        _ arguments: [String], input: Data = Data(), environment: [String: String] = [:],
        directory: URL? = nil, timeout: Duration? = nil,
        onStart: @escaping @Sendable (pid_t) -> Void = { _ in }
    ) async throws -> Output {
        try await Child.run(
            executable.path, arguments, environment: environment, input: input, directory: directory,
            timeout: timeout, onStart: onStart)
    }
}

/// Parses one JSON line into a dictionary.
func jsonObject(_ line: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
}
