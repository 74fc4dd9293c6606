@testable import Scanning
import Testing

/// Codes smeared by the camera moving while the shutter was open: the blur's length estimated
/// from the image, and undone.
struct MotionBlurTests {
    static func load(_ name: String) throws -> GrayImage { try ImageLoader.load(path: Fixtures.sample(name)) }

    @Test("the length of a blur along the rows or down the columns over 7 to 11 pixels is found", arguments: [3, 4, 5], [false, true])
    func blurLength(radius: Int, vertical: Bool) throws {
        let blurred = try Self.load("qrcode-01-clean.png").lineMeans(radius: radius, vertical: vertical)
        #expect(blurred.motionBlurLength(vertical: vertical) == 2 * radius + 1)
    }

    @Test func aPlainImageShowsNoBlurAndDeblursToItself() {
        let plain = GrayImage(width: 120, height: 90, fill: 128)
        #expect(plain.motionBlurLength(vertical: false) == nil)
        #expect(plain.motionBlurLength(vertical: true) == nil)
        for length in [2, 7, 8] {
            #expect(plain.deblurred(length: length, vertical: false) == plain)
            #expect(plain.deblurred(length: length, vertical: true) == plain)
        }
    }

    @Test("deblurring down the columns is deblurring the turned image along its rows")
    func bothDirectionsAgree() throws {
        let image = try Self.load("qrcode-62-motion.jpg")
        let turned = GrayImage(width: image.height, height: image.width, pixels: image.transposed())
        let down = image.deblurred(length: 8, vertical: true)
        let along = turned.deblurred(length: 8, vertical: false)
        #expect(GrayImage(width: along.height, height: along.width, pixels: along.transposed()) == down)
    }
}
