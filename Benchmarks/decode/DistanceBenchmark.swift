import Foundation
import Scanning

/// Reading distance at 720p: for frames from `Benchmarks/peers/distance_frames.py`, which
/// module sizes the camera's first pass (`decodeOnce`) reads, with the 640-px reduction and at
/// full size, per engine set (zxing always reads at full size; `default` is zxing at full size
/// with zbar at full size on the parts `RegionFinder` marks). Prints one row per frame and the smallest module read per column.
struct DistanceBenchmark {
    let folder: String

    func run() throws {
        // (column, engines, maxScanWidth, zbarRegions): "zbar-views" and "default" read with zbar
        // at full size on RegionFinder's parts and on the frame at 640 px; "reduced" is both with
        // zbar on the frame at 640 px only.
        let columns: [(String, [DecodeEngine], Int, Bool)] = [
            ("zbar-640", [.zbar], 640, false), ("zbar-views", [.zbar], 640, true), ("zbar-full", [.zbar], 0, false),
            ("zxing-full", [.zxing], 0, false), ("reduced", [.zxing, .zbar], 640, false), ("default", [.zxing, .zbar], 640, true),
            ("both-full", [.zxing, .zbar], 0, false),
        ]
        let decoders = try columns.map {
            try BarcodeDecoder(config: DecoderConfig(maxScanWidth: $0.2, zbarRegions: $0.3, engines: $0.1))
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
        var smallest: [String: [Double]] = [:]
        print("frame                " + columns.map { $0.0.leftPad(11) }.joined() + "   (ok = read right, x = misread, - = nothing)")
        for name in names {
            let stem = (name as NSString).deletingPathExtension
            let expected = try String(contentsOfFile: "\(folder)/\(stem).txt", encoding: .utf8)
            let symbology = String(stem.prefix { $0 != "-" })
            let module = Double(stem.split(separator: "m").last ?? "") ?? 0
            let image = try ImageLoader.load(path: "\(folder)/\(name)")
            var row = stem.padding(toLength: 21, withPad: " ", startingAt: 0)
            for (index, decoder) in decoders.enumerated() {
                let texts = decoder.decodeOnce(image).map(\.text)
                let mark = texts.isEmpty ? "-" : texts.allSatisfy { $0 == expected } ? "ok" : "x"
                if mark == "ok" {
                    smallest["\(symbology)", default: Array(repeating: .infinity, count: columns.count)][index] =
                        min(smallest["\(symbology)"]?[index] ?? .infinity, module)
                }
                row += mark.leftPad(11)
            }
            print(row)
        }
        print("smallest module read (pixels):")
        for (symbology, values) in smallest.sorted(by: { $0.key < $1.key }) {
            print(symbology.padding(toLength: 21, withPad: " ", startingAt: 0)
                  + values.map { ($0.isFinite ? String(format: "%.2f", $0) : "none").leftPad(11) }.joined())
        }
    }
}
