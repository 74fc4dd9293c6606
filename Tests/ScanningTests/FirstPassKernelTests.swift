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
}
