import Foundation
@testable import Scanning
import Testing

/// zxing-cpp beside zbar: Data Matrix, the combination of the two engines, and hostile input.
struct EngineTests {
    private func config(_ engines: [DecodeEngine]) -> DecoderConfig {
        var config = DecoderConfig()
        config.engines = engines
        return config
    }

    private func decode(_ name: String, engines: [DecodeEngine] = DecoderConfig.defaultEngines) throws -> [DecodedCode] {
        try BarcodeDecoder(config: config(engines)).decode(try ImageLoader.load(path: Fixtures.sample(name)))
    }

    @Test(
        "Data Matrix is read by the zxing engine, and not by zbar alone",
        arguments: ["datamatrix-01-clean.png", "datamatrix-04-photo.jpg", "datamatrix-06-tiny.png"])
    func dataMatrix(_ name: String) throws {
        let expected = try String(contentsOfFile: Fixtures.sample((name as NSString).deletingPathExtension + ".txt"), encoding: .utf8)
        let codes = try decode(name)
        #expect(codes.map(\.text) == [expected])
        #expect(codes.first?.symbology == .datamatrix)
        #expect(codes.first?.engines == [.zxing])
        #expect(try decode(name, engines: [.zbar]).isEmpty)
    }

    @Test("a code both engines read alike is marked as read by both")
    func bothEnginesAgree() throws {
        let codes = try decode("qrcode-01-clean.png")
        #expect(codes.map(\.text) == ["AST-000123"])
        #expect(codes.first?.engines == [.zbar, .zxing])
    }

    @Test("overlapping reads that disagree are both dropped; an agreeing pair is merged")
    func disagreementDrops() {
        let box = [CodePoint(x: 10, y: 10), CodePoint(x: 90, y: 10), CodePoint(x: 90, y: 40), CodePoint(x: 10, y: 40)]
        let zxing = DecodedCode(text: "5901234123457", symbology: .ean13, points: box, quality: 3, engines: [.zxing])
        let zbar = DecodedCode(text: "5901234123451", symbology: .ean13, points: box, quality: 3, engines: [.zbar])
        #expect(EngineCombiner.combine([zxing], [zbar]).isEmpty)
        let same = DecodedCode(text: "5901234123457", symbology: .ean13, points: box, quality: 2, engines: [.zbar])
        let merged = EngineCombiner.combine([zxing], [same])
        #expect(merged.map(\.text) == ["5901234123457"])
        #expect(merged.first?.engines == [.zbar, .zxing])
        #expect(merged.first?.isConfirmed == true)
    }

    @Test("a weak symbology from one engine in one reading is not confirmed; a strong one is")
    func weakNeedsSecondReading() {
        let point = [CodePoint(x: 0, y: 0)]
        #expect(!DecodedCode(text: "12345670", symbology: .ean8, points: point, quality: 5, engines: [.zxing]).isConfirmed)
        let twoViews: Set<ReadingView> = [ReadingView(engine: .zxing, pass: .full), ReadingView(engine: .zxing, pass: .retry(.smoothed))]
        #expect(DecodedCode(text: "12345670", symbology: .ean8, points: point, quality: 5, engines: [.zxing], views: twoViews).isConfirmed)
        // The same engine on the same pixels twice is one reading: it would repeat its misread.
        let read = DecodedCode(text: "5901234123457", symbology: .ean13, points: point, quality: 5, engines: [.zxing])
        #expect(!read.merged(with: read).isConfirmed)
        #expect(DecodedCode(text: "AST-1", symbology: .code128, points: point, quality: 1, engines: [.zbar]).isConfirmed)
    }

    @Test("zbar's Code 128 read without FNC4 counts as the same code as zxing's, with zxing's text")
    func fnc4() throws {
        let codes = try decode("code128-40-fnc4.png")
        #expect(codes.map(\.text) == ["Größe-Ä1"])
        #expect(codes.first?.engines == [.zbar, .zxing])
    }

    @Test("GS1 data as printed with AIs in parentheses, or with FNC1 as GS by config")
    func gs1() throws {
        #expect(try decode("datamatrix-07-gs1.png").map(\.text) == ["(01)09501101530003(10)AB12(17)251231"])
        #expect(try decode("code128-42-gs1.png").map(\.text) == ["(01)09501101530003(10)AB12(17)251231"])
        var fnc1 = DecoderConfig()
        fnc1.gs1Text = .fnc1
        let image = try ImageLoader.load(path: Fixtures.sample("datamatrix-07-gs1.png"))
        let text = try #require(try BarcodeDecoder(config: fnc1).decode(image).first?.text)
        #expect(Array(text.unicodeScalars.map(\.value)) == Array("010950110153000310AB12\u{1D}17251231".unicodeScalars.map(\.value)))
    }

    @Test(
        "images of hostile sizes read nothing and never take the process down",
        arguments: [(0, 0), (1, 1), (7, 7), (8, 8), (1, 70_000), (70_000, 1), (16_385, 8), (3, 5_000)])
    func hostileSizes(_ size: (Int, Int)) throws {
        let image = GrayImage(width: size.0, height: size.1, fill: 0)
        for engines in [[DecodeEngine.zxing], [.zbar], [.zxing, .zbar]] {
            let decoder = try BarcodeDecoder(config: config(engines))
            #expect(decoder.decode(image).isEmpty)
            #expect(decoder.decodeOnce(image).isEmpty)
        }
    }

    @Test("the zxing reader refuses sizes outside its range with an error, not a crash")
    func readerRefusesSizes() throws {
        let reader = try ZXingReader(symbologies: [.qrcode])
        for (width, height) in [(0, 0), (7, 100), (100, 16_385)] {
            let result = reader.scan(GrayImage(width: width, height: height, fill: 255))
            #expect(throws: DecoderError.self) { try result.get() }
        }
        #expect(try reader.scan(GrayImage(width: 64, height: 64, fill: 255)).get().isEmpty)
    }

    @Test("random noise of many shapes gives no false positive from either engine")
    func noiseHasNoCodes() throws {
        var generator = SystemRandomNumberGenerator()
        let decoder = try BarcodeDecoder()
        for (width, height) in [(9, 9), (33, 200), (320, 240), (640, 17)] {
            let pixels = (0..<(width * height)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(decoder.decode(GrayImage(width: width, height: height, pixels: pixels)).isEmpty)
        }
    }

    @Test("odd small sizes with noise, stripes and checkerboards pass through the zxing shim safely and read nothing")
    func oddSizesAndPatterns() throws {
        let decoder = try BarcodeDecoder(config: config([.zxing]))
        var generator = SystemRandomNumberGenerator()
        var decoded = 0, found: [String] = []
        for width in stride(from: 8, through: 71, by: 9) {
            for height in stride(from: 8, through: 71, by: 9) {
                let patterns: [(Int, Int) -> UInt8] = [
                    { _, _ in UInt8.random(in: 0...255, using: &generator) },
                    { x, _ in x % 2 == 0 ? 0 : 255 },
                    { x, y in (x / 2 + y / 2) % 2 == 0 ? 0 : 255 }
                ]
                for pattern in patterns {
                    let pixels = (0..<(width * height)).map { pattern($0 % width, $0 / width) }
                    found += decoder.decode(GrayImage(width: width, height: height, pixels: pixels)).map(\.text)
                    decoded += 1
                }
            }
        }
        #expect(decoded == 8 * 8 * 3)
        #expect(found.isEmpty, "false positives: \(found)")
    }

    @Test("decode --json names the engines of each code")
    func jsonNamesEngines() throws {
        let result = ImageDecodeResult(path: "x.png", outcome: .success(try decode("qrcode-01-clean.png")))
        #expect(result.jsonLine().contains(#""engines":["zbar","zxing"]"#))
    }
}
