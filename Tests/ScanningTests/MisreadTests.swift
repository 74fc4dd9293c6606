import Foundation
@testable import Scanning
import Testing

/// The classes of wrong reads found on outside photographs (issue 24), each held by its rule.
struct MisreadTests {
    private func decode(_ name: String, engines: [DecodeEngine] = DecoderConfig.defaultEngines) throws -> [DecodedCode] {
        var config = DecoderConfig()
        config.engines = engines
        return try BarcodeDecoder(config: config).decode(try ImageLoader.load(path: Fixtures.sample(name)))
    }

    @Test("a QR code of half-width katakana alone, with no two-byte character, is Shift_JIS by both engines")
    func halfWidthKatakana() throws {
        let codes = try decode("qrcode-90-sjis-katakana.png")
        #expect(codes.map(\.text) == ["ｱｾｯﾄ-ﾃｽﾄ"])
        #expect(codes.first?.engines == [.zbar, .zxing])
    }

    @Test("Kanji mode after binary bytes: zxing decodes each segment; zbar's read of the same bytes is the same code")
    func kanjiAfterBinaryBytes() throws {
        let expected = "\u{FE}\u{80}\u{A0}\u{FF}資産番号"
        let codes = try decode("qrcode-92-kanji-after-binary.png")
        #expect(codes.map(\.text) == [expected])
        #expect(codes.first?.engines == [.zbar, .zxing])
        // zbar alone sees only bytes that fit no character set as a whole: it reports nothing rather than mojibake.
        #expect(try decode("qrcode-92-kanji-after-binary.png", engines: [.zbar]).isEmpty)
    }

    @Test("Kanji mode after control bytes is Shift_JIS")
    func kanjiAfterControlBytes() throws {
        #expect(try decode("qrcode-91-kanji-after-control.png").map(\.text) == ["\u{1}\u{2}資産番号"])
    }

    @Test("an empty text is never a code")
    func emptyTextIsNoCode() {
        let box = [CodePoint(x: 0, y: 0), CodePoint(x: 50, y: 50)]
        let empty = DecodedCode(text: "", symbology: .datamatrix, points: box, quality: 1, engines: [.zxing])
        #expect(SymbolFilter(minLinearQuality: 2).accepted([empty]).isEmpty)
        let code = DecodedCode(text: "DM-1", symbology: .datamatrix, points: box, quality: 1, engines: [.zxing])
        #expect(SymbolFilter(minLinearQuality: 2).accepted([code]).map(\.text) == ["DM-1"])
    }

    @Test(
        "a numeric 1-D code or DataBar read by one engine in one view is not accepted on a still image",
        arguments: [Symbology.ean13, .upca, .ean8, .upce, .databar, .databarExpanded])
    func oneEngineOneViewIsNotEnough(_ symbology: Symbology) {
        let box = [CodePoint(x: 0, y: 0), CodePoint(x: 90, y: 40)]
        let zxing = DecodedCode(text: "5901234123457", symbology: symbology, points: box, quality: 4, engines: [.zxing])
        #expect(!zxing.isConfirmed)
        // The same pixels again (the full-size rescan of a wide photo) repeat a misread: still one reading.
        #expect(!SymbolFilter(minLinearQuality: 1).accepted([zxing, zxing]).contains { $0.isConfirmed })
        let zbar = DecodedCode(text: "5901234123457", symbology: symbology, points: box, quality: 4, engines: [.zbar])
        #expect(EngineCombiner.combine([zxing], [zbar]).allSatisfy { $0.isConfirmed })
    }

    @Test("a wide photo's first pass and its full-size rescan are one view for zxing, two for zbar")
    func rescanIsNotASecondReading() throws {
        let image = try ImageLoader.load(path: Fixtures.sample("frame-1280x720-ean13.jpg"))
        let zxingOnly = try BarcodeDecoder(config: DecoderConfig(engines: [.zxing]))
        let first = zxingOnly.decodeOnce(image)
        try #require(first.contains { $0.symbology == .ean13 })
        #expect(first.allSatisfy { !$0.isConfirmed })
        // Only the same engine at full size again: nothing new, so nothing is accepted on that alone.
        let again = SymbolFilter(minLinearQuality: 2).accepted(first + zxingOnly.decodeOnce(image))
        #expect(again.allSatisfy { !$0.isConfirmed })
    }

    @Test("Code 32 is read as its A-number only with decoder.code32; by default it is the Code 39 it is printed in")
    func code32() throws {
        let image = try ImageLoader.load(path: Fixtures.sample("code39-90-code32.png"))
        #expect(try BarcodeDecoder().decode(image).map(\.text) == ["3PRM8N"])
        #expect(try BarcodeDecoder(config: DecoderConfig(code32: true)).decode(image).map(\.text) == ["A123456788"])
        #expect(Code32.pharmacode("3PRM8N") == "A123456788")
        #expect(Code32.pharmacode("3PRM8P") == nil) // its check digit fails
        #expect(Code32.pharmacode("AST-01") == nil) // not the Code 32 alphabet
        #expect(Code32.pharmacode("3PRM8N0") == nil)
    }

    @Test("every code in an image is reported: a second label that only a retry reads is not lost to the first one")
    func everyCodeInAnImage() throws {
        let image = try ImageLoader.load(path: Fixtures.sample("multi-05-qr-and-inverted-qr.png"))
        let decoder = try BarcodeDecoder()
        // The first pass reads the plain label only; the inverted one needs the inverted pass.
        #expect(decoder.decodeOnce(image).map(\.text) == ["AST-000111"])
        let codes = decoder.decode(image)
        #expect(codes.map(\.text).sorted() == ["AST-000111", "AST-000555"])
        // Its points are in the whole image: right of the first label.
        let second = try #require(codes.first { $0.text == "AST-000555" })
        #expect(second.points.allSatisfy { $0.x > image.width / 2 && $0.x <= image.width })
        // Without retries, one.
        #expect(try BarcodeDecoder(config: DecoderConfig(retry: false)).decode(image).map(\.text) == ["AST-000111"])
    }

    @Test("a large photo's retries run on a reduced copy, and the code's points are in the photo's own coordinates")
    func largePhotoRetries() throws {
        let label = try ImageLoader.load(path: Fixtures.sample("qrcode-13-inverted.png"))
        let big = label.resized(width: label.width * 4, height: label.height * 4)
        var photo = GrayImage(width: 3_000, height: 2_400, fill: 200)
        let left = 1_800, top = 1_200
        for y in 0..<big.height { for x in 0..<big.width { photo.pixels[(top + y) * photo.width + left + x] = big.pixels[y * big.width + x] } }
        #expect(RetryPass.reduction(for: photo) > 1)
        let decoder = try BarcodeDecoder()
        #expect(decoder.decodeOnce(photo).isEmpty)
        let code = try #require(decoder.decode(photo).first)
        #expect(code.text == "AST-000123")
        #expect(code.points.allSatisfy { (left...(left + big.width)).contains($0.x) && (top...(top + big.height)).contains($0.y) }, "\(code.points)")
    }

    @Test("an EAN-13 that one engine also reads as another number passing the check digit gives only the right number")
    func eanMisreadBesideTheRightRead() throws {
        let image = try ImageLoader.load(path: Fixtures.sample("ean13-80-misread-prone.jpg"))
        let zxingOnly = try BarcodeDecoder(config: DecoderConfig(engines: [.zxing]))
        // What this guards against: zxing's first pass holds a wrong EAN-13 beside the right one.
        #expect(zxingOnly.decodeOnce(image).map(\.text).contains("2961934123457"))
        #expect(try BarcodeDecoder().decode(image).map(\.text) == ["5901234123457"])
        #expect(!zxingOnly.decode(image).contains { $0.text != "5901234123457" })
    }

    @Test("a QR code printed inside another, their texts one kanji apart: both are reported, the inner one inside the outer")
    func qrInsideQR() throws {
        let outerText = "棚卸資産-東-0042", innerText = "棚卸資産-西-0042"
        for name in ["multi-07-qr-inside-qr.png", "multi-08-qr-inside-qr-photo.jpg"] {
            let codes = try decode(name)
            #expect(codes.map(\.text).sorted() == [outerText, innerText].sorted(), "\(name)")
            let outer = try #require(codes.first { $0.text == outerText }), inner = try #require(codes.first { $0.text == innerText })
            let outside = SymbolFilter.Box(outer.points), inside = SymbolFilter.Box(inner.points)
            #expect(outside.minX < inside.minX && inside.maxX < outside.maxX && outside.minY < inside.minY && inside.maxY < outside.maxY)
        }
    }

    @Test("two QR texts over one outline are one code read two ways and are dropped; over nested outlines they are two codes")
    func matrixOutlines() {
        let big = [CodePoint(x: 0, y: 0), CodePoint(x: 200, y: 0), CodePoint(x: 200, y: 200), CodePoint(x: 0, y: 200)]
        let small = [CodePoint(x: 80, y: 80), CodePoint(x: 120, y: 80), CodePoint(x: 120, y: 120), CodePoint(x: 80, y: 120)]
        let nearlyBig = big.map { CodePoint(x: $0.x + 6, y: $0.y + 4) }
        let outer = DecodedCode(text: "棚卸資産-東", symbology: .qrcode, points: big, quality: 1, engines: [.zxing])
        let inner = DecodedCode(text: "棚卸資産-西", symbology: .qrcode, points: small, quality: 1, engines: [.zbar])
        let twoWays = DecodedCode(text: "棚卸資産-西", symbology: .qrcode, points: nearlyBig, quality: 1, engines: [.zbar])
        let filter = SymbolFilter(minLinearQuality: 2)
        #expect(filter.accepted(EngineCombiner.combine([outer], [inner])).map(\.text).sorted() == [outer.text, inner.text].sorted())
        #expect(filter.accepted([outer, inner]).count == 2)
        #expect(EngineCombiner.combine([outer], [twoWays]).isEmpty)
        #expect(filter.accepted([outer, twoWays]).isEmpty)
    }

    @Test("a UPC-E over a UPC-A's bars is dropped also when the two engines disagree on the UPC-A's digits")
    func upcEInsideDisputedUPCA() {
        let bars = [CodePoint(x: 10, y: 10), CodePoint(x: 210, y: 10), CodePoint(x: 210, y: 90), CodePoint(x: 10, y: 90)]
        let part = [CodePoint(x: 60, y: 40), CodePoint(x: 160, y: 40), CodePoint(x: 160, y: 60), CodePoint(x: 60, y: 60)]
        let zxing = DecodedCode(text: "036000291452", symbology: .upca, points: bars, quality: 3, engines: [.zxing])
        let zbar = DecodedCode(text: "036000241457", symbology: .upca, points: bars, quality: 3, engines: [.zbar])
        let upce = DecodedCode(text: "04252614", symbology: .upce, points: part, quality: 4, engines: [.zbar])
        #expect(EngineCombiner.combine([zxing], [zbar, upce]).isEmpty)
        #expect(BarcodeDecoder.oneView([zbar], [upce]).map(\.symbology) == [.upca])
        // With no longer code under it, a UPC-E stays.
        #expect(EngineCombiner.combine([], [upce]).map(\.text) == ["04252614"])
    }

    @Test("one engine's many reads of a UPC-E do not outvote its own other reading of other digits: both are dropped")
    func oneEngineDoesNotOutvoteItself() throws {
        let box = [CodePoint(x: 10, y: 10), CodePoint(x: 120, y: 60)]
        let many = DecodedCode(
            text: "05402885", symbology: .upce, points: box, quality: 15, engines: [.zbar],
            views: [ReadingView(engine: .zbar, pass: .retry(.sharpened)), ReadingView(engine: .zbar, pass: .retry(.thresholded))])
        let other = DecodedCode(
            text: "05007882", symbology: .upce, points: box, quality: 2, engines: [.zbar], views: [ReadingView(engine: .zbar, pass: .full)])
        #expect(SymbolFilter(minLinearQuality: 2).accepted([many, other]).isEmpty)
        // The other engine agreeing settles it.
        let both = many.merged(with: DecodedCode(text: "05402885", symbology: .upce, points: box, quality: 2, engines: [.zxing]))
        #expect(SymbolFilter(minLinearQuality: 2).accepted([both, other]).map(\.text) == ["05402885"])
        // The retail photo where zbar read 05402885 in its sharpened and thresholded copies and the
        // right 05007882 once: no wrong number.
        let texts = try decode("upce-85-retail-curved.jpg").map(\.text)
        #expect(texts.allSatisfy { $0 == "05007882" }, "\(texts)")
    }
}
