import CPNG
import CWebP
import Foundation
import Testing

@testable import Scanning

/// A JPEG with more pixels than `ImageLimits.maxPixels` (a phone's 48-, 50- or 200-megapixel
/// photo) is read at 1/2, 1/4 or 1/8 of its size by libjpeg-turbo as it decodes, a WebP by
/// libwebp's rescaler, and a HEIC's luma plane or a PNG's grey averaged down, instead of being
/// refused; its codes' outlines are given in the file's pixels.
@Suite("Photos over the pixel limit")
struct LargePhotoTests {
    static let name = "qrcode-15-photo.jpg" // 322×282

    static func expected() throws -> String {
        try String(contentsOfFile: Fixtures.sample("qrcode-15-photo.txt"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("Over the limit, a JPEG is read at the least reduction that fits, each side rounded up, and its code is read")
    func readReduced() throws {
        let bytes = try Fixtures.bytes(Self.name)
        let whole = try ImageLoader.decode(bytes, path: Self.name)
        #expect(whole.width == 322 && whole.height == 282 && whole.fileScale == 1)
        let cases: [(maxPixels: Int, factor: Int)] = [(90_804, 1), (90_803, 2), (22_701, 2), (22_700, 4), (5_751, 4), (5_750, 8), (1_476, 8)]
        for (maxPixels, factor) in cases {
            let image = try ImageLoader.decode(bytes, path: Self.name, limits: ImageLimits(maxPixels: maxPixels))
            #expect(image.fileScale == factor, "\(maxPixels)")
            #expect(image.width == (322 + factor - 1) / factor && image.height == (282 + factor - 1) / factor, "\(maxPixels)")
            #expect(image.width * image.height <= maxPixels)
        }
        let half = try ImageLoader.decode(bytes, path: Self.name, limits: ImageLimits(maxPixels: 30_000))
        let codes = try BarcodeDecoder(config: DecoderConfig()).decode(half)
        #expect(codes.map(\.text) == [try Self.expected()])
        // The outline is in the file's pixels: where the whole image's read puts it, within a
        // few of the half image's pixels.
        let full = try #require(try BarcodeDecoder(config: DecoderConfig()).decode(whole).first)
        let reduced = try #require(codes.first)
        #expect(reduced.points.count == full.points.count)
        #expect(Self.sameOutline(reduced.points, full.points, within: 8), "\(reduced.points) against \(full.points)")
    }

    /// The same corners, whichever each outline starts from, each within `tolerance` pixels.
    static func sameOutline(_ a: [CodePoint], _ b: [CodePoint], within tolerance: Int) -> Bool {
        a.count == b.count && a.allSatisfy { p in b.contains { abs($0.x - p.x) <= tolerance && abs($0.y - p.y) <= tolerance } }
    }

    @Test("Over the limit, a HEIC or AVIF photo's luma plane is averaged down where it lies; one with transparency is refused")
    func heifReduced() throws {
        for name in ["qrcode-49-photo.heic", "qrcode-58-photo.avif", "qrcode-95-colour-photo.heic"] {
            let bytes = try Fixtures.bytes(name)
            let whole = try ImageLoader.decode(bytes, path: name)
            let half = try ImageLoader.decode(bytes, path: name, limits: ImageLimits(maxPixels: 30_000))
            #expect(whole.fileScale == 1 && half.fileScale == 2 && half.width == 161 && half.height == 141, "\(name)")
            // The same pixels as the whole image averaged down: nothing else changes.
            #expect(half.pixels == whole.averagedDown(by: 2).pixels, "\(name)")
            let codes = try BarcodeDecoder(config: DecoderConfig()).decode(half)
            #expect(codes.map(\.text) == [try Self.expected()], "\(name)")
            let full = try #require(try BarcodeDecoder(config: DecoderConfig()).decode(whole).first)
            #expect(Self.sameOutline(try #require(codes.first).points, full.points, within: 8), "\(name)")
            let eighth = try ImageLoader.decode(bytes, path: name, limits: ImageLimits(maxPixels: 1_500))
            #expect(eighth.fileScale == 8 && eighth.width == 40 && eighth.height == 35, "\(name)")
        }
        // Transparency needs the colours (shown on white): such an image is never read reduced.
        let clear = Fixtures.sample("qrcode-59-transparent.avif")
        let size = try ImageLoader.load(path: clear)
        #expect(size.width * size.height > 20_000)
        #expect(throws: ImageError.tooManyPixels(path: clear, width: size.width, height: size.height, limit: 20_000)) {
            try ImageLoader.load(path: clear, limits: ImageLimits(maxPixels: 20_000))
        }
    }

    @Test("Over the limit, a PNG's grey is averaged down and a WebP is decoded reduced, lossy, lossless or with transparency")
    func pngAndWebPReduced() throws {
        let sample = try ImageLoader.decode(try Fixtures.bytes(Self.name), path: Self.name)
        let full = try #require(try BarcodeDecoder(config: DecoderConfig()).decode(sample).first)
        let files: [(String, [UInt8])] = [
            ("label.png", try Self.png(sample)), ("lossy.webp", try Self.webp(sample, .lossy)),
            ("lossless.webp", try Self.webp(sample, .lossless)), ("clear.webp", try Self.webp(sample, .transparent))
        ]
        for (name, bytes) in files {
            let whole = try ImageLoader.decode(bytes, path: name)
            #expect(whole.fileScale == 1 && whole.width == 322 && whole.height == 282, "\(name)")
            let half = try ImageLoader.decode(bytes, path: name, limits: ImageLimits(maxPixels: 30_000))
            #expect(half.fileScale == 2 && half.width * half.height <= 30_000, "\(name): \(half.width)×\(half.height)")
            if name.hasSuffix(".png") {
                #expect(half.pixels == whole.averagedDown(by: 2).pixels, "the same pixels as the whole image averaged down")
            } else {
                #expect(half.width == 161 && half.height == 141, "\(name): each side rounded up")
            }
            let codes = try BarcodeDecoder(config: DecoderConfig()).decode(half)
            #expect(codes.map(\.text) == [try Self.expected()], "\(name)")
            #expect(Self.sameOutline(try #require(codes.first).points, full.points, within: 8), "\(name)")
            let eighth = try ImageLoader.decode(bytes, path: name, limits: ImageLimits(maxPixels: 1_500))
            #expect(eighth.fileScale == 8 && eighth.width * eighth.height <= 1_500, "\(name)")
            #expect(throws: ImageError.tooManyPixels(path: name, width: 322, height: 282, limit: 30_000)) {
                try ImageLoader.decode(bytes, path: name, limits: ImageLimits(maxPixels: 30_000, maxReduction: 1))
            }
        }
        // What a decoder must hold whole, beyond the reduced result, stays within the memory
        // bound: a PNG's grey (1 byte a pixel), a lossless WebP's colours (4), a lossy WebP's
        // transparency (1); a lossy WebP without it holds a few rows only.
        let bound = ImageLimits(maxPixels: 30_000, maxDecoderBytes: 90_000)
        #expect(throws: ImageError.tooManyPixels(path: "label.png", width: 322, height: 282, limit: 90_000)) {
            try ImageLoader.decode(files[0].1, path: "label.png", limits: bound)
        }
        #expect(throws: ImageError.tooManyPixels(path: "lossless.webp", width: 322, height: 282, limit: 22_500)) {
            try ImageLoader.decode(files[2].1, path: "lossless.webp", limits: bound)
        }
        #expect(throws: ImageError.tooManyPixels(path: "clear.webp", width: 322, height: 282, limit: 90_000)) {
            try ImageLoader.decode(files[3].1, path: "clear.webp", limits: bound)
        }
        #expect(try ImageLoader.decode(files[1].1, path: "lossy.webp", limits: bound).fileScale == 2)
        // A WebP cut short is refused as damaged, saying so, when it is read reduced too.
        let cut = Array(files[1].1.prefix(files[1].1.count / 2))
        #expect(throws: ImageError.damaged(path: "cut.webp", format: "WebP", detail: "libwebp could not decode its pixels: its data stops short")) {
            try ImageLoader.decode(cut, path: "cut.webp", limits: ImageLimits(maxPixels: 30_000))
        }
    }

    /// A grey PNG of `image`, written by libpng.
    static func png(_ image: GrayImage) throws -> [UInt8] {
        var control = png_image()
        control.version = cpng_image_version()
        control.width = UInt32(image.width)
        control.height = UInt32(image.height)
        control.format = UInt32(PNG_FORMAT_GRAY)
        var size = 0
        _ = png_image_write_to_memory(&control, nil, &size, 0, image.pixels, 0, nil)
        var bytes = [UInt8](repeating: 0, count: size)
        let written = bytes.withUnsafeMutableBytes { png_image_write_to_memory(&control, $0.baseAddress, &size, 0, image.pixels, 0, nil) }
        try #require(written != 0 && size > 0)
        return Array(bytes.prefix(size))
    }

    enum WebPKind { case lossy, lossless, transparent }

    /// `image` as a WebP written by libwebp: lossy at quality 90, lossless, or lossy with an alpha
    /// channel whose white background is transparent (it reads as printed on paper).
    static func webp(_ image: GrayImage, _ kind: WebPKind) throws -> [UInt8] {
        let channels = kind == .transparent ? 4 : 3
        var colours = [UInt8](repeating: 0, count: image.width * image.height * channels)
        for (index, grey) in image.pixels.enumerated() {
            for channel in 0..<3 { colours[index * channels + channel] = grey }
            if channels == 4 { colours[index * 4 + 3] = grey > 200 ? 0 : 255 }
        }
        var output: UnsafeMutablePointer<UInt8>?
        let width = Int32(image.width), height = Int32(image.height), stride = width * Int32(channels)
        let size =
            switch kind {
            case .lossy: WebPEncodeRGB(colours, width, height, stride, 90, &output)
            case .lossless: WebPEncodeLosslessRGB(colours, width, height, stride, &output)
            case .transparent: WebPEncodeRGBA(colours, width, height, stride, 90, &output)
            }
        let encoded = try #require(output)
        defer { WebPFree(encoded) }
        try #require(size > 0)
        return Array(UnsafeBufferPointer(start: encoded, count: size))
    }

    @Test("Too many pixels even at 1/8, or where no reduction is allowed (the server's frames), is refused by the file's size")
    func refusedBeyondTheReduction() throws {
        let bytes = try Fixtures.bytes(Self.name)
        #expect(throws: ImageError.tooManyPixels(path: "a.jpg", width: 322, height: 282, limit: 1_475)) {
            try ImageLoader.decode(bytes, path: "a.jpg", limits: ImageLimits(maxPixels: 1_475))
        }
        #expect(throws: ImageError.tooManyPixels(path: "a.jpg", width: 322, height: 282, limit: 90_000)) {
            try ImageLoader.decode(bytes, path: "a.jpg", limits: ImageLimits(maxPixels: 90_000, maxReduction: 1))
        }
        #expect(throws: ImageError.tooManyPixels(path: "a.jpg", width: 322, height: 282, limit: 5_750)) {
            try ImageLoader.decode(bytes, path: "a.jpg", limits: ImageLimits(maxPixels: 5_750, maxReduction: 4))
        }
    }

    @Test("A 40-megapixel photo made from a sample, over the default limit by a few thousand pixels, is read at half size")
    func aPhoneSizedPhoto() throws {
        let sample = try ImageLoader.decode(try Fixtures.bytes(Self.name), path: Self.name)
        let times = 21 // 6762×5922: 40,044,564 pixels
        var pixels = [UInt8](repeating: 0, count: sample.width * times * sample.height * times)
        pixels.withUnsafeMutableBufferPointer { target in
            for row in 0..<(sample.height * times) {
                let source = (row / times) * sample.width, line = row * sample.width * times
                for column in 0..<(sample.width * times) { target[line + column] = sample.pixels[source + column / times] }
            }
        }
        let big = GrayImage(width: sample.width * times, height: sample.height * times, pixels: pixels)
        let jpeg = try #require(JPEGEncoder()?.encode(big, quality: 90))
        let image = try ImageLoader.decode(jpeg, path: "phone.jpg")
        #expect(image.fileScale == 2 && image.width == 3381 && image.height == 2961)
        let codes = try BarcodeDecoder(config: DecoderConfig()).decode(image)
        #expect(codes.map(\.text) == [try Self.expected()])
        let small = try #require(try BarcodeDecoder(config: DecoderConfig()).decode(sample).first)
        let outline = try #require(codes.first).points
        let expected = small.points.map { CodePoint(x: $0.x * times, y: $0.y * times) }
        #expect(Self.sameOutline(outline, expected, within: 3 * times), "\(outline) against \(expected)")
        #expect(outline.allSatisfy { (0...big.width).contains($0.x) && (0...big.height).contains($0.y) })
    }
}
