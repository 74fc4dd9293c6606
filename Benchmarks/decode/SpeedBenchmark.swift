import Foundation
import Scanning

/// Median milliseconds per frame on the camera-sized frames of SampleImages, for our decoder
/// and for pyzbar running the same zbar settings on the same pixels.
struct SpeedBenchmark {
    let samples: String
    let script: String
    let iterations: Int
    var config = DecoderConfig()

    func run() throws {
        let names = ["frame-640x480-none", "frame-640x480-qrcode", "frame-1280x720-none", "frame-1280x720-qrcode"]
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("decode-benchmark-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        print("symbologies: \(config.symbologies.map(\.rawValue).joined(separator: ",")), density \(config.density), "
              + "maxScanWidth \(config.maxScanWidth), \(iterations) runs per frame, median ms")
        print("frame                    ours-1pass  ours+retry  pyzbar-same  pyzbar-same-reduced  pyzbar-stock  ratios(same/ours, reduced/ours)")
        for name in names {
            let image = try ImageLoader.load(path: "\(samples)/\(name).jpg")
            let pgm = scratch.appendingPathComponent("\(name).pgm").path
            try writePGM(image, to: pgm)
            let decoder = try BarcodeDecoder(config: config)
            let once = median { _ = decoder.decodeOnce(image) }
            let full = median { _ = decoder.decode(image) }
            let found = decoder.decode(image).map(\.text).joined(separator: ",")
            let python = try pyzbar(pgm: pgm, config: config)
            print(name.padding(toLength: 25, withPad: " ", startingAt: 0)
                  + [once, full, python.same].map { format($0).leftPad(10) + "  " }.joined()
                  + format(python.reduced).leftPad(19) + "  " + format(python.stock).leftPad(12) + "  "
                  + String(format: "%.2fx, %.2fx", python.same / once, python.reduced / once)
                  + (found.isEmpty ? "" : "   [\(found)]"))
        }
    }

    private func median(_ body: () -> Void) -> Double {
        body()  // warm-up
        var times: [Double] = []
        for _ in 0..<iterations {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        return times[times.count / 2]
    }

    private func pyzbar(pgm: String, config: DecoderConfig) throws -> (same: Double, reduced: Double, stock: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, pgm, "--iterations", String(iterations),
                             "--density", String(config.density), "--max-width", String(config.maxScanWidth),
                             "--symbologies", config.symbologies.map(\.rawValue).joined(separator: ",")]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let numbers = output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard process.terminationStatus == 0, numbers.count == 3 else {
            throw BenchmarkError("pyzbar_speed.py failed: \(output)")
        }
        return (numbers[0], numbers[1], numbers[2])
    }

    private func writePGM(_ image: GrayImage, to path: String) throws {
        var data = Data("P5\n\(image.width) \(image.height)\n255\n".utf8)
        data.append(contentsOf: image.pixels)
        try data.write(to: URL(fileURLWithPath: path))
    }

    private func format(_ value: Double) -> String { String(format: "%.2f", value) }
}

struct BenchmarkError: LocalizedError {
    let errorDescription: String?
    init(_ message: String) { errorDescription = message }
}

extension String {
    func leftPad(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
