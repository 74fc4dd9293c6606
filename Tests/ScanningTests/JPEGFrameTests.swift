import Foundation
@testable import Scanning
import Testing

@Suite("A JPEG's memory is known before it is decoded")
struct JPEGFrameTests {
    static let regressions = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressionTests/FuzzRegressions/images")

    @Test func aBaselineJPEGIsDecodedRowByRowAndNeedsNoCoefficientBuffer() throws {
        let frame = try #require(JPEGFrame.read(try Fixtures.bytes("frame-1280x720-qrcode.jpg")))
        #expect(frame.width == 1280 && frame.height == 720)
        #expect(frame.scans == 1)
        #expect(frame.coefficientBytes == 0)
    }

    @Test func aProgressiveJPEGNeedsEveryBlockOfEveryComponent() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.regressions.appendingPathComponent("decoded-jpeg-progressive-3000x3000.jpg")))
        let frame = try #require(JPEGFrame.read(bytes))
        #expect(frame.scans > 1)
        #expect(frame.coefficientBytes == 375 * 375 * 3 * 128) // 4:4:4, three components
    }

    @Test func aProgressiveJPEGOverTheDecoderBudgetIsRefusedBeforeDecoding() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.regressions.appendingPathComponent("refused-jpeg-progressive-6000x6000-444.jpg")))
        #expect(throws: ImageError.self) { try ImageLoader.decode(bytes, path: "big.jpg") }
        let roomy = ImageLimits(maxDecoderBytes: 1 << 30)
        #expect(try ImageLoader.decode(bytes, path: "big.jpg", limits: roomy).width == 6000)
    }
}
