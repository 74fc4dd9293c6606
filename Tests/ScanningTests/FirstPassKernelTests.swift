@testable import Scanning
import Testing

/// The pixel loops of the camera's first pass against plain versions of the same arithmetic:
/// their fast forms must not change a single pixel (the reads of every sample depend on them).
struct FirstPassKernelTests {
    static func noise(width: Int, height: Int, seed: UInt64) -> GrayImage {
        var state = seed
        let pixels = (0..<(width * height)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    /// Each block's mean, rounded down, pixel by pixel.
    static func plainAverage(_ image: GrayImage, by factor: Int) -> GrayImage {
        let width = image.width / factor, height = image.height / factor
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                var sum = 0
                for dy in 0..<factor {
                    for dx in 0..<factor { sum += Int(image.pixels[(y * factor + dy) * image.width + x * factor + dx]) }
                }
                pixels.append(UInt8(sum / (factor * factor)))
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    @Test("averaging down gives each block's mean, for every factor and sizes that leave pixels over")
    func averagedDownIsTheBlockMean() {
        for (width, height) in [(1280, 720), (37, 23), (16, 9), (641, 361)] {
            let image = Self.noise(width: width, height: height, seed: UInt64(width * 7 + height))
            for factor in 2...5 {
                #expect(image.averagedDown(by: factor) == Self.plainAverage(image, by: factor), "\(width)×\(height) by \(factor)")
            }
            #expect(image.averagedDown(by: 1) == image)
        }
        let white = GrayImage(width: 64, height: 32, fill: 255)
        #expect(white.averagedDown(by: 2) == GrayImage(width: 32, height: 16, fill: 255))
        #expect(white.averagedDown(by: 3) == GrayImage(width: 21, height: 10, fill: 255))
    }

    /// `RegionFinder`'s counts pixel pair by pixel pair.
    static func plainTransitions(_ image: GrayImage) -> [Int] {
        let block = RegionFinder.block, step = RegionFinder.step, threshold = RegionFinder.threshold
        let columns = image.width / block, rows = image.height / block, width = image.width
        var counts = [Int](repeating: 0, count: columns * rows)
        func strong(_ a: Int, _ b: Int) -> Bool { abs(Int(image.pixels[a]) - Int(image.pixels[b])) >= threshold }
        for y in stride(from: 0, to: rows * block, by: step) {
            for x in 0..<(columns * block - 1) where strong(y * width + x + 1, y * width + x) {
                counts[(y / block) * columns + x / block] += 1
            }
        }
        for y in 0..<(rows * block - 1) {
            for x in stride(from: 0, to: columns * block, by: step) where strong((y + 1) * width + x, y * width + x) {
                counts[(y / block) * columns + x / block] += 1
            }
        }
        return counts
    }

    @Test("the region finder's transition counts, a line at a time, are those of the pixel pairs one by one")
    func transitionsCountedAlike() throws {
        for (width, height) in [(16, 16), (40, 40), (47, 33), (333, 97), (1280, 720)] {
            for image in [Self.noise(width: width, height: height, seed: 5), BinarizerTests.patchwork(width: width, height: height)] {
                let counts = RegionFinder.transitions(in: image, columns: width / 16, rows: height / 16)
                #expect(counts == Self.plainTransitions(image), "\(width)×\(height)")
            }
        }
        for name in ["frame-1280x720-none.jpg", "frame-1280x720-ean13.jpg", "frame-640x480-qrcode.jpg"] {
            let image = try ImageLoader.load(path: Fixtures.sample(name))
            let counts = RegionFinder.transitions(in: image, columns: image.width / 16, rows: image.height / 16)
            #expect(counts == Self.plainTransitions(image), "\(name)")
        }
    }
}

/// The shim's binarizer for QR and Data Matrix (`czx_binarize`) against zxing-cpp 1.4's
/// HybridBinarizer: written out plainly here, and read side by side with zxing-cpp's own.
struct BinarizerTests {
    /// HybridBinarizer's rule, block by block and pixel by pixel.
    static func plainBinarized(_ image: GrayImage) -> GrayImage {
        let width = image.width, height = image.height
        let columns = (width + 7) / 8, rows = (height + 7) / 8
        func at(_ x: Int, _ y: Int) -> Int { Int(image.pixels[y * width + x]) }
        var points = [Int](repeating: 0, count: columns * rows)
        for row in 0..<rows {
            let top = min(row * 8, height - 8)
            for column in 0..<columns {
                let left = min(column * 8, width - 8)
                var sum = 0, low = 255, high = 0
                for y in top..<(top + 8) {
                    for x in left..<(left + 8) {
                        sum += at(x, y)
                        low = min(low, at(x, y))
                        high = max(high, at(x, y))
                    }
                }
                var point = sum / 64
                if high - low <= 24 {
                    point = low / 2
                    if row > 0, column > 0 {
                        let neighbours =
                            (points[(row - 1) * columns + column] + 2 * points[row * columns + column - 1]
                                + points[(row - 1) * columns + column - 1]) / 4
                        if low < neighbours { point = neighbours }
                    }
                }
                points[row * columns + column] = point
            }
        }
        var bits = [UInt8](repeating: 0, count: width * height)
        for row in 0..<rows {
            for column in 0..<columns {
                let middleRow = min(max(row, 2), rows - 3), middleColumn = min(max(column, 2), columns - 3)
                var sum = 0
                for dy in -2...2 {
                    for dx in -2...2 { sum += points[(middleRow + dy) * columns + middleColumn + dx] }
                }
                let top = min(row * 8, height - 8), left = min(column * 8, width - 8)
                for y in top..<(top + 8) {
                    for x in left..<(left + 8) { bits[y * width + x] = at(x, y) <= sum / 25 ? 0 : 255 }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: bits)
    }

    /// Flat areas (every block's own rule), a slow gradient, and noise beside them.
    static func patchwork(width: Int, height: Int) -> GrayImage {
        let noise = FirstPassKernelTests.noise(width: width, height: height, seed: UInt64(width + height))
        var image = GrayImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let value: Int
                switch (x / 24 + y / 16) % 4 {
                case 0: value = 200
                case 1: value = 30 + (x + y) / 8 % 20
                case 2: value = Int(noise.pixels[y * width + x])
                default: value = 120 + Int(noise.pixels[y * width + x]) % 20
                }
                image.pixels[y * width + x] = UInt8(value)
            }
        }
        return image
    }

    @Test("the shim's black-and-white image is HybridBinarizer's, edges and flat blocks included")
    func binarizedLikeZXing() throws {
        for (width, height) in [(40, 40), (41, 47), (64, 48), (333, 97), (1280, 720)] {
            let image = Self.patchwork(width: width, height: height)
            #expect(ZXingReader.binarized(image) == Self.plainBinarized(image), "\(width)×\(height)")
        }
        for name in ["frame-1280x720-none.jpg", "frame-640x480-qrcode.jpg", "datamatrix-01-clean.png", "qrcode-02-small.png"] {
            let image = try ImageLoader.load(path: Fixtures.sample(name))
            #expect(ZXingReader.binarized(image) == Self.plainBinarized(image), "\(name)")
        }
        #expect(ZXingReader.binarized(GrayImage(width: 39, height: 100)) == nil)
    }

    @Test("QR and Data Matrix read from the shim's image exactly as from zxing-cpp's own, on every sample")
    func samplesReadAlike() throws {
        let fast = try ZXingReader(symbologies: [.qrcode, .datamatrix])
        let own = try ZXingReader(symbologies: [.qrcode, .datamatrix], ownBinarizer: true)
        let rotated = try ZXingReader(symbologies: [.datamatrix], rotate: true)
        let rotatedOwn = try ZXingReader(symbologies: [.datamatrix], rotate: true, ownBinarizer: true)
        var read = 0
        for sample in Fixtures.sampleImages {
            let image = try ImageLoader.load(path: Fixtures.sample(sample.name))
            let symbols = try fast.scan(image).get()
            #expect(symbols == (try own.scan(image).get()), "\(sample.name)")
            #expect((try rotated.scan(image).get()) == (try rotatedOwn.scan(image).get()), "\(sample.name)")
            read += symbols.count
        }
        #expect(read > 50)
    }
}
