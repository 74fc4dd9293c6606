import Foundation
import Scanning

/// Prints what each engine reads in each file, on the first pass and on each retry pass on its
/// own, and what the decoder reports: for finding which view misreads an image.
struct Probe {
    let paths: [String]

    func run() throws {
        let (both, zbar, zxing) = try engineDecoders()
        for path in paths {
            let image = try ImageLoader.load(path: path)
            print("\((path as NSString).lastPathComponent) \(image.width)x\(image.height): decode \(show(both.decode(image)))")
            print("  first pass: zbar \(show(zbar.decodeOnce(image)))  zxing \(show(zxing.decodeOnce(image)))")
            for pass in RetryPass.allCases {
                let reads = [("zbar", zbar.decode(image, pass: pass)), ("zxing", zxing.decode(image, pass: pass))].filter { !$0.1.isEmpty }
                guard !reads.isEmpty else { continue }
                print("  \(pass.rawValue): " + reads.map { "\($0.0) \(show($0.1))" }.joined(separator: "  "))
            }
        }
    }

    private func show(_ codes: [DecodedCode]) -> String {
        "[" + codes.map { "\($0.symbology.rawValue):\($0.text.debugDescription) q\($0.quality)" }.joined(separator: ", ") + "]"
    }
}
