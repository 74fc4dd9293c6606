import Foundation
import Scanning

// decode-benchmark speed [--iterations N] [--density D] [--max-width W]   median ms per frame, ours vs pyzbar (same zbar settings)
// decode-benchmark quality [--verbose] [--passes] [--classes] [--samples DIR]  reads on SampleImages (or DIR) per symbology (or damage), ours vs zbarimg
// decode-benchmark engines [--iterations N]  first pass at full size per engine, beside pyzbar and zxing-cpp (Python)
// decode-benchmark distance DIR            smallest module read at 720p (frames from Benchmarks/peers/distance_frames.py)
// decode-benchmark folder [--count N]       images/s on one and on every core, and peak memory, over N images
// decode-benchmark photo [--iterations N]   retry cost on 12-megapixel photos (first pass, whole decode)
// decode-benchmark large [--iterations N] [--folder DIR]  48- and 200-megapixel JPEG photos: load (reduced) and decode
// decode-benchmark probe FILE…              each engine's reads per pass, and what the decoder reports
// decode-benchmark reads FILE…              every read with its corners: first pass, camera, decode (diff two runs)
// decode-benchmark frame FILE… [--iterations N]  the camera's pass (decodeFrame) alone, median CPU ms (for profiling)
// Build with -c release; run from the package root (it finds SampleImages/ from there).

let arguments = Array(CommandLine.arguments.dropFirst())
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
let samples = root.appendingPathComponent("SampleImages").path

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

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
        try QualityComparison(samples: option("--samples") ?? samples, verbose: arguments.contains("--verbose"),
                              passes: arguments.contains("--passes"), byClass: arguments.contains("--classes")).run()
    case "engines":
        try EngineSpeed(samples: samples, script: root.appendingPathComponent("Benchmarks/peers/peer_speed.py").path,
                        iterations: option("--iterations", default: 60)).run()
    case "distance":
        try DistanceBenchmark(folder: arguments.dropFirst().first ?? "/tmp/distance").run()
    case "folder":
        try FolderBenchmark(samples: samples, count: option("--count", default: 10_000)).run()
    case "photo":
        try PhotoBenchmark(samples: samples, iterations: option("--iterations", default: 3)).run()
    case "large":
        try PhotoBenchmark(samples: samples, iterations: option("--iterations", default: 3)).runLarge(folder: option("--folder") ?? "/tmp")
    case "probe":
        try Probe(paths: Array(arguments.dropFirst())).run()
    case "reads":
        try Reads(paths: Array(arguments.dropFirst())).run()
    case "frame":
        var paths = Array(arguments.dropFirst())
        if let index = paths.firstIndex(of: "--iterations") { paths.removeSubrange(index..<min(index + 2, paths.count)) }
        try FrameSpeed(paths: paths, iterations: option("--iterations", default: 100)).run()
    default:
        print("usage: decode-benchmark speed [--iterations N] [--density D] [--max-width W] | quality [--verbose] | engines | distance DIR | folder [--count N] | photo [--iterations N] | large [--iterations N] [--folder DIR] | probe FILE… | reads FILE… | frame FILE… [--iterations N]")
    }
} catch {
    FileHandle.standardError.write(Data("decode-benchmark: \(error.localizedDescription)\n".utf8))
    exit(1)
}
