import Foundation
import Scanning

/// Decodes a folder of `count` small images (copies of one sample) and prints the time and
/// the peak resident memory, to show that memory stays bounded however many files there are.
struct FolderBenchmark {
    let samples: String
    let count: Int

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decode-folder-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Data(contentsOf: URL(fileURLWithPath: "\(samples)/qrcode-01-clean.png"))
        for index in 0..<count {
            try source.write(to: folder.appendingPathComponent(String(format: "img-%05d.png", index)))
        }
        let before = peakResidentKiB()
        let start = Date()
        var images = 0, codes = 0, failures = 0
        for result in ImageDecodeSequence(paths: [folder.path], config: DecoderConfig()) {
            images += 1
            switch result.outcome {
            case .success(let found): codes += found.count
            case .failure: failures += 1
            }
        }
        let seconds = Date().timeIntervalSince(start)
        print("\(images) images, \(codes) codes, \(failures) failures in \(String(format: "%.1f", seconds)) s; "
              + "peak RSS \(before / 1024) MiB before, \(peakResidentKiB() / 1024) MiB after")
    }

    private func peakResidentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "0") ?? 0
    }
}
