import Foundation
@testable import Scanning
import Testing

/// libzxing 1.4 looks for a Data Matrix only along the middle row of an image: the
/// `datamatrix-strips` retry pass reads the ones above or below it.
struct DataMatrixStripTests {
    /// Every retry pass but the strips.
    static let withoutStrips = DecoderConfig(retryPasses: RetryPass.allCases.filter { $0 != .dataMatrixStrips })

    static func load(_ name: String) throws -> GrayImage { try ImageLoader.load(path: Fixtures.sample(name)) }

    /// `code` pasted into a plain light canvas with its top left corner at (x, y).
    static func canvas(_ code: GrayImage, x: Int, y: Int, width: Int = 960, height: Int = 720) -> GrayImage {
        var image = GrayImage(width: width, height: height, fill: 200)
        for row in 0..<code.height {
            for column in 0..<code.width { image.pixels[(y + row) * width + x + column] = code.pixels[row * code.width + column] }
        }
        return image
    }

    @Test(
        "photos whose Data Matrix lies off the middle row are read with the strips, and by no other pass",
        arguments: ["datamatrix-63-defocus.jpg", "datamatrix-64-glare.jpg", "datamatrix-67-module2.jpg", "datamatrix-68-jpeg-q35.jpg"])
    func photoOffTheMiddleRow(name: String) throws {
        let image = try Self.load(name)
        #expect(try BarcodeDecoder(config: Self.withoutStrips).decode(image).isEmpty, "read without the strips")
        let codes = try BarcodeDecoder().decode(image)
        #expect(codes.map(\.text) == ["DM-ASSET-00321"])
        #expect(codes.first?.symbology == .datamatrix)
    }

    @Test(
        "a clean Data Matrix in a corner of a photo, upright or turned 90° or 180°, is read; its points are in the photo's coordinates",
        arguments: [(0, 0, 0), (640, 400, 0), (600, 20, 180), (24, 380, 90)])
    func cleanCodeInACorner(x: Int, y: Int, turn: Int) throws {
        var code = try Self.load("datamatrix-01-clean.png")
        if turn == 180 { code.pixels.reverse() }
        if turn == 90 { code = code.rotated(degrees: 90) }
        let image = Self.canvas(code, x: x, y: y)
        #expect(try BarcodeDecoder(config: Self.withoutStrips).decode(image).isEmpty, "read without the strips")
        let codes = try BarcodeDecoder().decode(image)
        #expect(codes.map(\.text) == ["AST-000789"])
        let box = SymbolFilter.Box(codes.first?.points ?? [])
        #expect(box.minX >= x && box.maxX <= x + code.width && box.minY >= y && box.maxY <= y + code.height, "\(box)")
        // The camera's decode runs no retry pass: a frame costs what it did.
        #expect(try BarcodeDecoder().decodeFrame(image).isEmpty)
    }

    @Test("a 12-megapixel photo whose Data Matrix lies off the middle row gets the strips on its reduced copy")
    func twelveMegapixelPhoto() throws {
        let sample = try Self.load("datamatrix-64-glare.jpg")
        let label = sample.resized(width: sample.width * 4, height: sample.height * 4)
        let photo = Self.canvas(label, x: 1_300, y: 200, width: 4_000, height: 3_000)
        #expect(RetryPass.reduction(for: photo) > 1, "its retries run on a reduced copy")
        #expect(try BarcodeDecoder(config: Self.withoutStrips).decode(photo).isEmpty, "read without the strips")
        let codes = try BarcodeDecoder().decode(photo)
        #expect(codes.map(\.text) == ["DM-ASSET-00321"])
        let box = SymbolFilter.Box(codes.first?.points ?? [])
        #expect(box.minX >= 1_300 && box.maxX <= 1_300 + label.width && box.minY >= 200 && box.maxY <= 200 + label.height, "\(box)")
    }

    @Test("on a 12-megapixel photo the first Data Matrix read ends the reduced copy's retries, and a second label elsewhere is still read")
    func twoLabelsOnATwelveMegapixelPhoto() throws {
        let label = try Self.load("datamatrix-64-glare.jpg")
        let matrix = label.resized(width: label.width * 4, height: label.height * 4)
        var photo = Self.canvas(matrix, x: 1_300, y: 200, width: 4_000, height: 3_000)
        let qr = try Self.load("qrcode-13-inverted.png")
        let big = qr.resized(width: qr.width * 5, height: qr.height * 5)
        for row in 0..<big.height {
            for column in 0..<big.width { photo.pixels[(1_900 + row) * photo.width + 2_600 + column] = big.pixels[row * big.width + column] }
        }
        let codes = try BarcodeDecoder().decode(photo)
        #expect(Set(codes.map(\.text)) == ["DM-ASSET-00321", "AST-000123"], "\(codes.map(\.text))")
    }

    @Test("what ends a reduced copy's retries: a confirmed QR code or Data Matrix, never a linear code, which goes on pooling")
    func whatEndsTheRetries() {
        let corners = [CodePoint(x: 0, y: 0), CodePoint(x: 40, y: 40)]
        let matrix = DecodedCode(text: "DM-1", symbology: .datamatrix, points: corners, quality: 1, engines: [.zxing])
        let ean = DecodedCode(text: "4006381333931", symbology: .ean13, points: corners, quality: 3, engines: [.zbar])
        let eanTwice = DecodedCode(text: "4006381333931", symbology: .ean13, points: corners, quality: 3, engines: [.zbar, .zxing])
        let code128 = DecodedCode(text: "AST-1", symbology: .code128, points: corners, quality: 3, engines: [.zbar, .zxing])
        #expect(BarcodeDecoder.endsReducedRetries([matrix]))
        #expect(!BarcodeDecoder.endsReducedRetries([ean]) && !BarcodeDecoder.endsReducedRetries([eanTwice, code128]))
        #expect(!BarcodeDecoder.endsReducedRetries([]))
    }

    @Test("some strip has its middle row across a code of 16 pixels or more, wherever it is (with its quiet zone), and holds all of it")
    func stripsCoverEveryPlaceAndSize() {
        for side in [16, 24, 40, 70, 130, 250] {
            // Dark and light 2-pixel modules in a diagonal pattern.
            var code = GrayImage(width: side, height: side, fill: 255)
            for index in code.pixels.indices where ((index % side) / 2 * 7 + (index / side) / 2 * 13) % 5 < 2 { code.pixels[index] = 20 }
            for y in stride(from: 16, through: 720 - side - 16, by: 37) {
                let image = Self.canvas(code, x: 300, y: y)
                let strips = DataMatrixStrips.strips(in: image)
                #expect(
                    strips.contains { strip in
                        let middle = strip.y + strip.height / 2
                        return middle > y && middle < y + side && strip.y <= y && strip.y + strip.height >= y + side
                            && strip.x <= 300 && strip.x + strip.width >= 300 + side
                    }, "a \(side)-pixel code at row \(y)")
                #expect(strips.reduce(0) { $0 + $1.area } <= DataMatrixStrips.maxGrowth * image.width * image.height)
            }
        }
    }

    @Test("a plain image has no strips, and a busy one has strips over at most maxGrowth times its pixels")
    func stripsStayWithinTheirBudget() {
        #expect(DataMatrixStrips.strips(in: GrayImage(width: 640, height: 480, fill: 128)).isEmpty)
        var generator = SystemRandomNumberGenerator()
        let noise = GrayImage(width: 800, height: 600, pixels: (0..<(800 * 600)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let strips = DataMatrixStrips.strips(in: noise)
        #expect(!strips.isEmpty)
        #expect(strips.reduce(0) { $0 + $1.area } <= DataMatrixStrips.maxGrowth * noise.width * noise.height)
        #expect(strips.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x + $0.width <= 800 && $0.y + $0.height <= 600 })
    }
}
