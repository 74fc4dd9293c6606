import Foundation
import Scanning

/// The cost of the retry passes on 12-megapixel photos (4000×3000), the size of a phone's
/// picture: a desk with no code, a label the first pass reads, a label only a retry reads
/// (inverted), and a damaged label. Prints the median CPU ms of the decoding thread for the
/// first pass (`decodeOnce`) and for the whole `decode`, and what the retries added.
struct PhotoBenchmark {
    let samples: String
    let iterations: Int

    func run() throws {
        let desk = scaled(try ImageLoader.load(path: "\(samples)/none-03-desk.jpg"), width: 4000, height: 3000)
        let scenes: [(String, GrayImage)] = [
            ("no code", desk),
            ("QR read at once", try label("qrcode-01-clean.png", on: desk, factor: 5)),
            ("QR read by a retry (inverted)", try label("qrcode-13-inverted.png", on: desk, factor: 5)),
            ("Data Matrix with glare", try label("datamatrix-64-glare.jpg", on: desk, factor: 4)),
            ("EAN-13 turned 40°", try label("ean13-61-persp40.jpg", on: desk, factor: 4))
        ]
        let decoder = try BarcodeDecoder()
        print("4000×3000, one thread, \(iterations) runs each, median CPU ms; default config (both engines, retries on)")
        print("scene | first pass | decode | retries | codes")
        for (name, image) in scenes {
            let first = median { _ = decoder.decodeOnce(image) }
            let whole = median { _ = decoder.decode(image) }
            let codes = decoder.decode(image).map(\.text)
            print("\(name) | \(format(first)) | \(format(whole)) | \(format(whole - first)) | \(codes)")
        }
    }

    /// Photos over the 40-megapixel limit (a phone's 48- and 200-megapixel modes): a QR label on
    /// the desk, written as a greyscale JPEG (quality 85) to `folder`, then read as a file is:
    /// median CPU ms to load it (libjpeg-turbo reduces it as it decodes) and to decode its codes.
    /// The files are kept for the peers (`zbarimg FILE`).
    func runLarge(folder: String) throws {
        let desk = try ImageLoader.load(path: "\(samples)/none-03-desk.jpg")
        print("one thread, \(iterations) runs each, median CPU ms; default config (both engines, retries on)")
        print("photo | file | read as | load | decode | codes")
        for (name, width, height, factor) in [("48 MP", 8064, 6048, 10), ("200 MP", 16320, 12240, 20)] {
            let scene = try label("qrcode-01-clean.png", on: scaled(desk, width: width, height: height), factor: factor)
            guard let jpeg = JPEGEncoder()?.encode(scene, quality: 85) else { throw ImageError.empty(path: name) }
            let path = "\(folder)/large-\(width)x\(height).jpg"
            try Data(jpeg).write(to: URL(fileURLWithPath: path))
            let image = try ImageLoader.load(path: path)
            let decoder = try BarcodeDecoder()
            let load = median { _ = try? ImageLoader.load(path: path) }
            let decode = median { _ = decoder.decode(image) }
            let size = "\(image.width)×\(image.height) (1/\(image.fileScale))"
            print("\(name) \(width)×\(height) | \(path), \(jpeg.count / 1_000_000) MB | \(size) | \(format(load)) | \(format(decode)) | \(decoder.decode(image).map(\.text))")
        }
    }

    /// A sample image enlarged `factor` times and laid on the desk, a third of the way in.
    private func label(_ name: String, on desk: GrayImage, factor: Int) throws -> GrayImage {
        let sample = try ImageLoader.load(path: "\(samples)/\(name)")
        let big = scaled(sample, width: sample.width * factor, height: sample.height * factor)
        var scene = desk
        let left = desk.width / 3, top = desk.height / 3
        for y in 0..<min(big.height, desk.height - top) {
            for x in 0..<min(big.width, desk.width - left) {
                scene.pixels[(top + y) * desk.width + left + x] = big.pixels[y * big.width + x]
            }
        }
        return scene
    }

    /// Bilinear resampling.
    private func scaled(_ image: GrayImage, width: Int, height: Int) -> GrayImage {
        var pixels = [UInt8](repeating: 0, count: width * height)
        let sx = Double(image.width) / Double(width), sy = Double(image.height) / Double(height)
        for y in 0..<height {
            let fy = max(0, (Double(y) + 0.5) * sy - 0.5), y0 = min(Int(fy), image.height - 1), y1 = min(y0 + 1, image.height - 1)
            let wy = fy - Double(y0)
            for x in 0..<width {
                let fx = max(0, (Double(x) + 0.5) * sx - 0.5), x0 = min(Int(fx), image.width - 1), x1 = min(x0 + 1, image.width - 1)
                let wx = fx - Double(x0)
                let top = Double(image.pixels[y0 * image.width + x0]) * (1 - wx) + Double(image.pixels[y0 * image.width + x1]) * wx
                let bottom = Double(image.pixels[y1 * image.width + x0]) * (1 - wx) + Double(image.pixels[y1 * image.width + x1]) * wx
                pixels[y * width + x] = UInt8((top * (1 - wy) + bottom * wy).rounded())
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    private func format(_ ms: Double) -> String { String(format: "%.0f", ms) }

    private func median(_ body: () -> Void) -> Double {
        var times: [Double] = []
        for _ in 0..<iterations {
            var start = timespec(), end = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
            body()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
            times.append(Double(end.tv_sec - start.tv_sec) * 1e3 + Double(end.tv_nsec - start.tv_nsec) / 1e6)
        }
        times.sort()
        return times[times.count / 2]
    }
}
