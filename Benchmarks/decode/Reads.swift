import Foundation
import Scanning

/// Every read of each file, with its corners, by the default decoder and by each engine alone:
/// the first pass, the camera's pass and the whole decode. For comparing a change's reads image
/// by image (`diff` two runs' output).
struct Reads {
    let paths: [String]

    func run() throws {
        let (both, zbar, zxing) = try engineDecoders()
        for path in paths {
            let image = try ImageLoader.load(path: path)
            print((path as NSString).lastPathComponent)
            print("  first pass: \(show(both.decodeOnce(image)))")
            print("  zbar first pass: \(show(zbar.decodeOnce(image)))")
            print("  zxing first pass: \(show(zxing.decodeOnce(image)))")
            print("  camera: \(show(both.decodeFrame(image)))")
            print("  decode: \(show(both.decode(image)))")
        }
    }

    private func show(_ codes: [DecodedCode]) -> String {
        "[" + codes.map { code in
            let corners = code.points.map { "\($0.x),\($0.y)" }.joined(separator: " ")
            return "\(code.symbology.rawValue):\(code.text.debugDescription) q\(code.quality) \(code.engines.map(\.rawValue)) (\(corners))"
        }.joined(separator: ", ") + "]"
    }
}
