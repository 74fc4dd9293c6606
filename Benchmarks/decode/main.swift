import Foundation
import Scanning

// decode-benchmark speed [--iterations N] [--density D] [--max-width W]   median ms per frame, ours vs pyzbar (same zbar settings)
// decode-benchmark quality [--verbose] [--passes]  per-symbology reads on SampleImages, ours vs zbarimg
// decode-benchmark folder [--count N]       peak memory while decoding a folder of N images
// Build with -c release; run from the package root (it finds SampleImages/ from there).

let arguments = Array(CommandLine.arguments.dropFirst())
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
let samples = root.appendingPathComponent("SampleImages").path

func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
          let parsed = Int(arguments[index + 1]) else { return value }
    return parsed
}

do {
    switch arguments.first {
    case "speed":
        var config = DecoderConfig()
        config.density = option("--density", default: config.density)
        config.maxScanWidth = option("--max-width", default: config.maxScanWidth)
        try SpeedBenchmark(samples: samples, script: root.appendingPathComponent("Benchmarks/decode/pyzbar_speed.py").path,
                           iterations: option("--iterations", default: 60), config: config).run()
    case "quality":
        try QualityComparison(samples: samples, verbose: arguments.contains("--verbose"),
                              passes: arguments.contains("--passes")).run()
    case "folder":
        try FolderBenchmark(samples: samples, count: option("--count", default: 10_000)).run()
    default:
        print("usage: decode-benchmark speed [--iterations N] [--density D] [--max-width W] | quality [--verbose] | folder [--count N]")
    }
} catch {
    FileHandle.standardError.write(Data("decode-benchmark: \(error.localizedDescription)\n".utf8))
    exit(1)
}
