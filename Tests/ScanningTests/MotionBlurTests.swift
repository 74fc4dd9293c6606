@testable import Scanning
import Testing

/// Codes smeared by the camera moving while the shutter was open: the `deblur-horizontal` and
/// `deblur-vertical` retry passes estimate the blur's length from the image and undo it.
struct MotionBlurTests {
    static let deblurPasses: [RetryPass] = [.deblurredHorizontally, .deblurredVertically]
    /// Every retry pass but the two deblur passes.
    static let withoutDeblur = DecoderConfig(retryPasses: RetryPass.allCases.filter { !deblurPasses.contains($0) })

    static func load(_ name: String) throws -> GrayImage { try ImageLoader.load(path: Fixtures.sample(name)) }

    @Test("the motion-blurred QR photo is read with the deblur passes, and by no other pass")
    func motionPhoto() throws {
        let image = try Self.load("qrcode-62-motion.jpg")
        #expect(try BarcodeDecoder(config: Self.withoutDeblur).decode(image).isEmpty, "read without the deblur passes")
        let codes = try BarcodeDecoder().decode(image)
        #expect(codes.map(\.text) == ["AST-000789"])
        #expect(codes.first?.symbology == .qrcode)
        // The camera's decode runs no retry pass: a frame costs what it did.
        #expect(try BarcodeDecoder().decodeFrame(image).isEmpty)
    }

    @Test(
        "a clean QR code blurred along its rows or down its columns over 7 to 11 pixels is read, and its blur length found",
        arguments: [3, 4, 5], [false, true])
    func generatedQRCode(radius: Int, vertical: Bool) throws {
        let blurred = try Self.load("qrcode-01-clean.png").lineMeans(radius: radius, vertical: vertical)
        #expect(blurred.motionBlurLength(vertical: vertical) == 2 * radius + 1)
        #expect(try BarcodeDecoder(config: Self.withoutDeblur).decode(blurred).isEmpty, "read without the deblur passes")
        #expect(try BarcodeDecoder().decode(blurred).map(\.text) == ["AST-000123"])
    }

    @Test("a clean Data Matrix at 4 pixels a module blurred over 9 pixels either way is read", arguments: [false, true])
    func generatedDataMatrix(vertical: Bool) throws {
        let clean = try Self.load("datamatrix-01-clean.png")
        let blurred = clean.resized(width: clean.width / 2, height: clean.height / 2).lineMeans(radius: 4, vertical: vertical)
        #expect(try BarcodeDecoder(config: Self.withoutDeblur).decode(blurred).isEmpty, "read without the deblur passes")
        let codes = try BarcodeDecoder().decode(blurred)
        #expect(codes.map(\.text) == ["AST-000789"])
        #expect(codes.first?.symbology == .datamatrix)
    }

    @Test func aPlainImageShowsNoBlurAndDeblursToItself() {
        let plain = GrayImage(width: 120, height: 90, fill: 128)
        #expect(plain.motionBlurLength(vertical: false) == nil)
        #expect(plain.motionBlurLength(vertical: true) == nil)
        #expect(RetryPass.deblurredHorizontally.apply(to: plain) == nil, "nothing to scan")
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
