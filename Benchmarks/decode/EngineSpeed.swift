import Foundation
import Scanning

/// Median ms per camera-sized frame, first pass only (what the camera loop runs), at full size
/// (no reduction) for zbar alone, zxing alone and both, and the default (zxing at full size,
/// zbar reduced to 640 px wide); beside pyzbar and zxing-cpp's Python binding on the same
/// frames, as ratios (peer / ours, both engines at full size). Times are the thread's CPU time
/// (CLOCK_THREAD_CPUTIME_ID, Python's time.thread_time), so other work on a shared machine
/// does not count.
struct EngineSpeed {
    let samples: String
    let script: String
    let iterations: Int

    func run() throws {
        let names = ["frame-640x480-none", "frame-640x480-qrcode", "frame-1280x720-none", "frame-1280x720-qrcode",
                     "frame-1280x720-datamatrix", "frame-1280x720-ean13", "frame-1280x720-code128"]
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("engine-speed-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // (column, engines, maxScanWidth, zbarRegions): "both-full" scans everything at full size with
        // both engines; "zbar-views" is zbar as in the default: RegionFinder's parts at full size
        // and the whole frame at 640 px; "reduced" is zxing with zbar at 640 px only, the default
        // before regions.
        let variants: [(String, [DecodeEngine], Int, Bool)] = [
            ("zbar-full", [.zbar], 0, false), ("zbar-640", [.zbar], 640, false), ("zbar-views", [.zbar], 640, true),
            ("zxing-full", [.zxing], 0, false), ("both-full", [.zxing, .zbar], 0, false),
            ("reduced", [.zxing, .zbar], 640, false), ("default", [.zxing, .zbar], 640, true),
        ]
        var images: [GrayImage] = []
        var pgms: [String] = []
        for name in names {
            let image = try ImageLoader.load(path: "\(samples)/\(name).jpg")
            let pgm = scratch.appendingPathComponent("\(name).pgm").path
            var data = Data("P5\n\(image.width) \(image.height)\n255\n".utf8)
            data.append(contentsOf: image.pixels)
            try data.write(to: URL(fileURLWithPath: pgm))
            images.append(image)
            pgms.append(pgm)
        }
        let peers = try python(pgms)
        print("first pass (decodeOnce), one thread, \(iterations) runs per frame, median CPU ms; default symbologies, density 2")
        print("frame                    " + variants.map { $0.0.leftPad(11) }.joined() + "     pyzbar  zxing-py   pyzbar/both  zxing-py/both")
        for (index, name) in names.enumerated() {
            var cells: [Double] = []
            for (_, engines, width, regions) in variants {
                let decoder = try BarcodeDecoder(config: DecoderConfig(maxScanWidth: width, zbarRegions: regions, engines: engines))
                cells.append(median { _ = decoder.decodeOnce(images[index]) })
            }
            let peer = peers[index]
            let both = cells[4]
            print(name.padding(toLength: 25, withPad: " ", startingAt: 0)
                  + cells.map { String(format: "%.2f", $0).leftPad(11) }.joined()
                  + String(format: "%11.2f%10.2f%13.2fx%14.2fx", peer.0, peer.1, peer.0 / both, peer.1 / both))
        }
    }

    private func median(_ body: () -> Void) -> Double {
        body()
        var times: [Double] = []
        for _ in 0..<iterations {
            let start = threadCPUNanoseconds()
            body()
            times.append(Double(threadCPUNanoseconds() - start) / 1e6)
        }
        times.sort()
        return times[times.count / 2]
    }

    private func threadCPUNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    private func python(_ frames: [String]) throws -> [(Double, Double)] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--iterations", String(iterations)] + frames
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let rows = output.split(separator: "\n").map { $0.split(separator: " ").dropFirst().compactMap { Double($0) } }
        guard process.terminationStatus == 0, rows.count == frames.count, rows.allSatisfy({ $0.count == 2 }) else {
            throw BenchmarkError("peer_speed.py failed: \(output)")
        }
        return rows.map { ($0[0], $0[1]) }
    }
}
