import Foundation
import Scanning

/// The camera's pass (`decodeFrame`, default configuration) on the given files alone: median CPU
/// ms of the decoding thread, and what it read. Small enough to run under `perf record` or
/// `valgrind --tool=callgrind` (the pixels are loaded once, before the timed runs).
struct FrameSpeed {
    let paths: [String]
    let iterations: Int

    func run() throws {
        let decoder = try BarcodeDecoder()
        for path in paths {
            let image = try ImageLoader.load(path: path)
            var found: [DecodedCode] = []
            var times: [Double] = []
            for _ in 0...iterations {
                let start = threadCPUNanoseconds()
                found = decoder.decodeFrame(image)
                times.append(Double(threadCPUNanoseconds() - start) / 1e6)
            }
            times.removeFirst()  // warm-up
            times.sort()
            let reads = found.map { "\($0.symbology.rawValue):\($0.text.debugDescription)" }.joined(separator: ", ")
            print(
                "\((path as NSString).lastPathComponent) \(image.width)x\(image.height): median "
                    + String(format: "%.2f", times[times.count / 2]) + " ms, min " + String(format: "%.2f", times[0])
                    + " ms over \(iterations) runs [\(reads)]")
        }
    }

    private func threadCPUNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
