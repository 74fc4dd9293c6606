import Foundation
import Scanning

/// Decodes a folder of `count` images (copies of every sample image in turn, so a realistic
/// mix of clean, hard and empty images) with one thread and with every core, and prints
/// images/s and the peak resident memory, which stays bounded however many files there are.
struct FolderBenchmark {
    let samples: String
    let count: Int

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decode-folder-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = try FileManager.default.contentsOfDirectory(atPath: samples)
            .filter { ["png", "jpg", "pgm", "ppm"].contains(($0 as NSString).pathExtension) }.sorted()
        guard !sources.isEmpty else { throw BenchmarkError("no sample images in \(samples)") }
        let contents = try sources.map { try Data(contentsOf: URL(fileURLWithPath: "\(samples)/\($0)")) }
        for index in 0..<count {
            let source = index % sources.count
            let name = String(format: "img-%05d.", index) + (sources[source] as NSString).pathExtension
            try contents[source].write(to: folder.appendingPathComponent(name))
        }
        let before = peakResidentKiB()
        for workers in [1, ProcessInfo.processInfo.activeProcessorCount] {
            let start = Date(), cpuStart = processCPUSeconds()
            var images = 0, codes = 0, failures = 0
            ParallelImageDecode(paths: [folder.path], config: DecoderConfig(), workers: workers).run { result in
                images += 1
                switch result.outcome {
                case .success(let found): codes += found.count
                case .failure: failures += 1
                }
            }
            let seconds = Date().timeIntervalSince(start), cpu = processCPUSeconds() - cpuStart
            print("\(workers) thread(s): \(images) images, \(codes) codes, \(failures) failures in "
                  + String(format: "%.1f s = %.1f images/s (CPU %.1f s, %.2f cores busy)", seconds, Double(images) / seconds,
                           cpu, cpu / seconds)
                  + "; peak RSS \(before / 1024) MiB before, \(peakResidentKiB() / 1024) MiB after")
        }
    }

    private func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    private func peakResidentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "0") ?? 0
    }
}
