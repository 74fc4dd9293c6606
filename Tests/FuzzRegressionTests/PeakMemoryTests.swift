import AuditTestSupport
import Foundation
import Testing
import TestKit

/// The built `fuzz-images` (swift test builds it: this target depends on it) replays every image
/// of FuzzRegressions/images and SampleImages/ in its own process and reports its peak resident
/// memory above the baseline it had before the first image.
@Suite struct PeakMemoryTests {
    static let budgetKiB = 256 * 1024

    static let replay: URL = {
        let folders = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL
        ]
        let found = folders.map { $0.appendingPathComponent("fuzz-images") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return found ?? folders[0].appendingPathComponent("fuzz-images")
    }()

    @Test func everyImageStaysWithin256MiBAboveTheBaseline() async throws {
        let (status, text) = try await Self.runReplay()
        #expect(status == 0, "\(text.suffix(3000))")
        let figure = text.split(separator: "\n").last { $0.hasPrefix("baseline-rss-kib:") }
        let above = try #require(figure?.split(separator: " ").last.flatMap { Int($0) }, "no memory figure in:\n\(text.suffix(2000))")
        #expect(above <= Self.budgetKiB, "peak \(above) KiB above the baseline:\n\(text)")
    }

    /// Runs the replay to its end; its status and output.
    private static func runReplay() async throws -> (Int32, String) {
        let samples = Regression.root.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("SampleImages")
        let output = try await Child.run(replay.path, [Regression.root.appendingPathComponent("images").path, samples.path])
        return (output.status, output.stdout)
    }
}
