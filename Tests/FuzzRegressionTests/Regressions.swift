import Foundation
import Testing

/// The inputs under FuzzRegressions/: files the fuzzers found crashing (or hand-made hostile
/// ones of the same classes), each named for what it must give: `refused-…` or `decoded-…`
/// (images), `refused-…` or `accepted-…` (CSV), and any name for JSON (no body may be a 500).
struct Regression: CustomTestStringConvertible, Sendable {
    var folder: String
    var name: String
    var bytes: [UInt8]
    var testDescription: String { "\(folder)/\(name)" }

    var expectsRefusal: Bool { name.hasPrefix("refused-") }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("FuzzRegressions")

    static func all(in folder: String) -> [Regression] {
        let url = root.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(name).path) else { return nil }
            return Regression(folder: folder, name: name, bytes: [UInt8](data))
        }
    }
}
