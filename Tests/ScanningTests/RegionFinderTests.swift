import Foundation
@testable import Scanning
import Testing

/// zbar at full size on the parts of a 720p frame with bars or modules (`RegionFinder`).
struct RegionFinderTests {
    static func frame(_ name: String) throws -> GrayImage { try ImageLoader.load(path: Fixtures.sample("\(name).jpg")) }

    @Test(
        "a desk scene with no code leaves little to scan; a label's code lies inside one region",
        arguments: [
            ("frame-1280x720-qrcode", "AST-000123"), ("frame-1280x720-code128", "AST-000456"),
            ("frame-1280x720-ean13", "4006381333931")
        ])
    func regionsHoldTheCode(name: String, text: String) throws {
        let empty = try Self.frame("frame-1280x720-none")
        let emptyArea = RegionFinder.regions(in: empty)?.reduce(0) { $0 + $1.area }
        #expect(emptyArea.map { Double($0) < 0.25 * Double(empty.width * empty.height) } == true, "\(String(describing: emptyArea))")

        let image = try Self.frame(name)
        let found = RegionFinder.regions(in: image)
        #expect(found != nil, "the regions of \(name) cover more than 40% of it")
        let regions = found ?? []
        // zbar alone, first pass, on those regions only: it reads the code at full size, and
        // every corner of the code is inside one region.
        let zbarOnly = try BarcodeDecoder(config: DecoderConfig(engines: [.zbar]))
        let code = try #require(zbarOnly.decodeOnce(image).first)
        #expect(code.text == text)
        #expect(
            regions.contains { region in
                code.points.allSatisfy {
                    (region.x...(region.x + region.width)).contains($0.x) && (region.y...(region.y + region.height)).contains($0.y)
                }
            })
    }

    @Test("zbar with regions reads a QR code whose modules the 640-px reduction blurs away")
    func smallModulesAreRead() throws {
        // A QR code with 2.5-pixel modules in the middle of a plain 1280×720 frame.
        var image = GrayImage(width: 1280, height: 720, fill: 200)
        let sample = try ImageLoader.load(path: Fixtures.sample("qrcode-01-clean.png"))
        // qrcode-01-clean has 4-pixel modules: shrink it to 2.5-pixel modules and paste it.
        let small = sample.resized(width: sample.width * 5 / 8, height: sample.height * 5 / 8)
        for y in 0..<small.height {
            for x in 0..<small.width { image.pixels[(300 + y) * 1280 + 560 + x] = small.pixels[y * small.width + x] }
        }
        let regions = try BarcodeDecoder(config: DecoderConfig(engines: [.zbar]))
        let reduced = try BarcodeDecoder(config: DecoderConfig(zbarRegions: false, engines: [.zbar]))
        #expect(regions.decodeOnce(image).map(\.text) == ["AST-000123"])
        #expect(reduced.decodeOnce(image).isEmpty, "the reduced frame is expected to lose this code")
    }

    @Test("a busy frame is scanned whole, reduced: the regions would cover most of it")
    func busyFrameFallsBack() {
        var generator = SystemRandomNumberGenerator()
        let pixels = (0..<(1280 * 720)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(RegionFinder.regions(in: GrayImage(width: 1280, height: 720, pixels: pixels)) == nil)
    }

    @Test("zbar's two views of a frame count as one reading: a code both found stays unconfirmed, and reads that disagree are dropped")
    func twoViewsAreOneReading() {
        func code(_ text: String, _ symbology: Symbology, x: Int) -> DecodedCode {
            DecodedCode(
                text: text, symbology: symbology,
                points: [
                    CodePoint(x: x, y: 10), CodePoint(x: x + 100, y: 10),
                    CodePoint(x: x + 100, y: 60), CodePoint(x: x, y: 60)
                ],
                quality: 3, engines: [.zbar])
        }
        let ean = code("96385074", .ean8, x: 0)
        let both = BarcodeDecoder.oneView([ean], [ean])
        #expect(both.count == 1 && both[0].readings == 1 && !both[0].isConfirmed)
        // The same place read as two different Code 128 texts: neither is kept.
        #expect(BarcodeDecoder.oneView([code("AST-1", .code128, x: 0)], [code("AST-7", .code128, x: 20)]).isEmpty)
        // Codes apart from each other all stay.
        #expect(BarcodeDecoder.oneView([code("AST-1", .code128, x: 0)], [code("AST-7", .code128, x: 500)]).count == 2)
    }
}
