import Foundation
@testable import Scanning
import Testing
import TestKit

/// Loading real files, good and bad. Each bad input gives its own clear error.
struct ImageLoaderTests {
    @Test(
        "PNG, JPEG, PGM and PPM load as greyscale of the right size",
        arguments: ["qrcode-01-clean.png", "qrcode-15-photo.jpg", "qrcode-40-pgm.pgm", "qrcode-41-ppm.ppm"])
    func loadsEachFormat(_ name: String) throws {
        let image = try ImageLoader.load(path: Fixtures.sample(name))
        #expect(image.width > 50 && image.height > 50)
        #expect(image.pixels.count == image.width * image.height)
        #expect(image.pixels.contains { $0 < 64 } && image.pixels.contains { $0 > 192 })
    }

    @Test("A CMYK JPEG (print work, Adobe's inverted inks) loads as the grey of the photo it was made from")
    func cmykJPEGLoadsAsGrey() throws {
        #expect(try Self.meanDifference("qrcode-42-cmyk.jpg", from: "qrcode-15-photo.jpg") <= 6)
        // Not inverted: the inks' convention is read from the file.
        #expect(JPEGFrame.read(try Fixtures.bytes("qrcode-42-cmyk.jpg"))?.adobe == true)
        #expect(JPEGFrame.read(try Fixtures.bytes("qrcode-15-photo.jpg"))?.adobe == false)
    }

    /// The mean difference, of 255, between the grey of `name` and of the image it was saved
    /// from (of the same size, or the difference is the most there is).
    static func meanDifference(_ name: String, from source: String) throws -> Int {
        let image = try ImageLoader.load(path: Fixtures.sample(name)), original = try ImageLoader.load(path: Fixtures.sample(source))
        guard image.width == original.width, image.height == original.height else { return 255 }
        return zip(image.pixels, original.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / max(original.pixels.count, 1)
    }

    @Test("PGM and PNG of the same code load the same pixels")
    func pgmMatchesPNG() throws {
        let pgm = try ImageLoader.load(path: Fixtures.sample("qrcode-40-pgm.pgm"))
        #expect(try BarcodeDecoder().decode(pgm).map(\.text) == ["PGM-TAG-1"])
        let ascii = Array("P2\n# comment\n3 2\n255\n0 128 255\n10 20 30\n".utf8)
        let small = try ImageLoader.decode(ascii, path: "ascii.pgm")
        #expect(small == GrayImage(width: 3, height: 2, pixels: [0, 128, 255, 10, 20, 30]))
    }

    @Test(
        "a JPEG cut short and closed with an end marker is reported as cut short, not decoded as grey",
        arguments: ["qrcode-15-photo.jpg", "code128-15-photo.jpg"])
    func truncatedWithEndMarker(_ name: String) throws {
        let bytes = try Fixtures.bytes(name)
        for fraction in [0.3, 0.5, 0.8] {
            let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction))) + [0xFF, 0xD9]
            do {
                _ = try ImageLoader.decode(cut, path: "cut.jpg")
                Issue.record("\(name) cut at \(fraction) and closed loaded")
            } catch {
                guard case .damaged(_, "JPEG", let detail) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(detail.contains("ends early"), "\(detail)")
            }
        }
        #expect(throws: Never.self) { try ImageLoader.decode(bytes, path: name) }
    }

    @Test("a header that claims more pixels than the file could hold is refused before any memory goes to it")
    func claimedSizeNeedsTheBytes() throws {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in body {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            func be(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
            return be(UInt32(data.count)) + body + be(~crc)
        }
        // 6000×6000 grey in a 60-byte PNG, a PGM and a written-out PPM with almost no pixels.
        let png =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", [0, 0, 0x17, 0x70, 0, 0, 0x17, 0x70, 8, 0, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x9C, 0x63, 0, 0, 0, 1, 0, 1]) + chunk("IEND", [])
        let liars: [(String, [UInt8])] = [
            ("liar.png", png),
            ("liar.pgm", Array("P5\n6000 6000\n255\n".utf8) + [UInt8](repeating: 0, count: 100)),
            ("liar.ppm", Array("P3\n3000 3000\n255\n1 2 3\n".utf8))
        ]
        for (name, bytes) in liars {
            do {
                _ = try ImageLoader.decode(bytes, path: name)
                Issue.record("\(name) loaded")
            } catch {
                guard case .damaged(_, _, let detail) = error else {
                    Issue.record("\(name): \(error)")
                    continue
                }
                #expect(detail.contains("claims") || detail.contains("expected"), "\(name): \(detail)")
            }
        }
    }

    @Test("a text file named .png is refused as not an image")
    func textNamedPNG() throws {
        let path = try Fixtures.scratchFolder() + "/notes.png"
        try Fixtures.write(Array("hello, this is text\n".utf8), to: path)
        #expect(throws: ImageError.unknownFormat(path: path, detail: "it starts with the text \"hello, t\"")) {
            try ImageLoader.load(path: path)
        }
    }

    @Test("WebP: a lossy photo reads as the grey of the photo it was saved from; a label on a transparent background reads as on white")
    func webPLoadsAsGrey() throws {
        #expect(try Self.meanDifference("qrcode-43-photo.webp", from: "qrcode-15-photo.jpg") <= 8)
        let label = try ImageLoader.load(path: Fixtures.sample("qrcode-48-transparent.webp"))
        let clean = try ImageLoader.load(path: Fixtures.sample("qrcode-01-clean.png"))
        #expect(label.width == clean.width && label.pixels.first == 255, "the transparent margin is white")
        #expect(zip(label.pixels, clean.pixels).allSatisfy { ($0 < 128) == ($1 < 128) })
        for (name, text) in [("qrcode-43-photo.webp", "qrcode-15-photo.txt"), ("qrcode-48-transparent.webp", "qrcode-01-clean.txt")] {
            let expected = try String(contentsOfFile: Fixtures.sample(text), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let codes = try BarcodeDecoder(config: DecoderConfig()).decode(try ImageLoader.load(path: Fixtures.sample(name)))
            #expect(codes.map(\.text) == [expected], "\(name)")
        }
        // An animated WebP is named as such, and a cut one is damaged.
        let animated = Fixtures.sample("animated-two-frames.webp")
        #expect(
            throws: ImageError.formatNotRead(path: animated, format: "Animated WebP", advice: "save one frame of it as PNG or JPEG")
        ) { try ImageLoader.load(path: animated) }
        let bytes = try Fixtures.bytes("qrcode-43-photo.webp")
        let path = try Fixtures.scratchFolder() + "/cut.webp"
        try Fixtures.write(Array(bytes.prefix(bytes.count / 2)), to: path)
        #expect {
            try ImageLoader.load(path: path)
        } throws: { error in
            guard case .damaged(_, "WebP", _) = error as? ImageError else { return false }
            return true
        }
    }

    @Test("HEIC and AVIF: a photo reads as the grey of the photo it was saved from; a label on a transparent background reads as on white")
    func heifLoadsAsGrey() throws {
        #expect(try Self.meanDifference("qrcode-49-photo.heic", from: "qrcode-15-photo.jpg") <= 8)
        #expect(try Self.meanDifference("qrcode-58-photo.avif", from: "qrcode-15-photo.jpg") <= 8)
        let label = try ImageLoader.load(path: Fixtures.sample("qrcode-59-transparent.avif"))
        let clean = try ImageLoader.load(path: Fixtures.sample("qrcode-01-clean.png"))
        #expect(label.width == clean.width && label.height == clean.height && label.pixels.first == 255, "the transparent margin is white")
        #expect(zip(label.pixels, clean.pixels).allSatisfy { ($0 < 128) == ($1 < 128) })
        let samples = [
            ("qrcode-49-photo.heic", "qrcode-49-photo.txt"), ("qrcode-58-photo.avif", "qrcode-58-photo.txt"),
            ("qrcode-59-transparent.avif", "qrcode-59-transparent.txt"),
            // In colour, as a phone's photo is (YCbCr 4:2:0): read as its luma plane.
            ("qrcode-95-colour-photo.heic", "qrcode-95-colour-photo.txt")
        ]
        for (name, text) in samples {
            let expected = try String(contentsOfFile: Fixtures.sample(text), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let codes = try BarcodeDecoder(config: DecoderConfig()).decode(try ImageLoader.load(path: Fixtures.sample(name)))
            #expect(codes.map(\.text) == [expected], "\(name)")
        }
        // More pixels than allowed, where no reduction is: refused by the size the file gives,
        // before decoding (`LargePhotoTests` reads it reduced).
        let photo = Fixtures.sample("qrcode-49-photo.heic")
        #expect(throws: ImageError.tooManyPixels(path: photo, width: 322, height: 282, limit: 90_000)) {
            try ImageLoader.load(path: photo, limits: ImageLimits(maxPixels: 90_000, maxReduction: 1))
        }
    }

    @Test(
        "HEIC and AVIF: cut, damaged or empty files are refused as damaged, never a crash",
        arguments: ["qrcode-49-photo.heic", "qrcode-58-photo.avif", "qrcode-95-colour-photo.heic"])
    func damagedHEIF(_ name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let format = name.hasSuffix(".avif") ? "AVIF" : "HEIC"
        var random = SplitMix64(seed: 0x4845_4946) // the same damaged files on every run
        var variants = [Array(bytes.prefix(bytes.count / 2)), Array(bytes.prefix(12)), Array(bytes.prefix(40))]
        for _ in 0..<150 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                damaged[Int.random(in: 12..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            variants.append(damaged)
        }
        var refused = 0
        for variant in variants {
            do {
                _ = try ImageLoader.decode(variant, path: name)
            } catch {
                switch error {
                case .damaged(_, let named, let detail): #expect(named == format && !detail.isEmpty)
                case .formatNotRead(_, let named, _), .unknownFormat(path: _, detail: let named): #expect(!named.isEmpty)
                case .tooManyPixels: break // a size made larger than the limit
                default: Issue.record("\(name): \(error)")
                }
                refused += 1
            }
        }
        #expect(refused >= 3, "the cut files at least are refused")
    }

    @Test(
        "an image in a format that is not read is named, with what to do",
        arguments: [
            ("scan.tif", [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0], "TIFF"),
            ("old.bmp", Array("BM".utf8) + [0xF6, 0x76, 2, 0] + [UInt8](repeating: 0, count: 12), "BMP"),
            ("anim.gif", Array("GIF89a".utf8) + [1, 0, 1, 0], "GIF"), ("sheet.png", Array("%PDF-1.7\n".utf8), "PDF")
        ])
    func otherFormatsAreNamed(_ name: String, _ bytes: [UInt8], _ format: String) throws {
        let path = try Fixtures.scratchFolder() + "/" + name
        try Fixtures.write(bytes, to: path)
        #expect(throws: ImageError.formatNotRead(path: path, format: format, advice: "save or convert it as PNG or JPEG")) {
            try ImageLoader.load(path: path)
        }
        // Text that begins like one is still called text.
        #expect(ImageLoader.otherFormat(Array("BM is not a bitmap".utf8)) == nil)
    }

    @Test("a zero-byte file is refused as empty")
    func emptyFile() throws {
        let path = try Fixtures.scratchFolder() + "/empty.jpg"
        try Fixtures.write([], to: path)
        #expect(throws: ImageError.empty(path: path)) { try ImageLoader.load(path: path) }
    }

    @Test("a truncated PNG or JPEG is reported as damaged", arguments: ["qrcode-01-clean.png", "qrcode-15-photo.jpg"])
    func truncated(_ name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let path = try Fixtures.scratchFolder() + "/cut-" + name
        try Fixtures.write(Array(bytes.prefix(bytes.count / 2)), to: path)
        do {
            _ = try ImageLoader.load(path: path)
            Issue.record("a truncated file loaded")
        } catch {
            guard case .damaged(let errorPath, let format, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(errorPath == path)
            #expect(format == (name.hasSuffix(".png") ? "PNG" : "JPEG"))
            #expect(error.localizedDescription.contains("damaged or cut short"))
        }
    }

    @Test("a PNG header claiming 100000×100000 is refused before any pixel is allocated")
    func hugePNGHeader() throws {
        var ihdr = Array("IHDR".utf8) + Fixtures.bigEndian(100_000) + Fixtures.bigEndian(100_000)
        ihdr += [8, 0, 0, 0, 0] // 8-bit grey, no interlace
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Fixtures.bigEndian(13)
        png += ihdr + Fixtures.bigEndian(Fixtures.crc32(ihdr))
        let idat = Array("IDAT".utf8) + [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01] // a few zlib bytes
        png += Fixtures.bigEndian(UInt32(idat.count - 4)) + idat + Fixtures.bigEndian(Fixtures.crc32(idat))
        png += Fixtures.bigEndian(0) + Array("IEND".utf8) + Fixtures.bigEndian(Fixtures.crc32(Array("IEND".utf8)))
        #expect(throws: ImageError.tooManyPixels(path: "huge.png", width: 100_000, height: 100_000, limit: 40_000_000)) {
            try ImageLoader.decode(png, path: "huge.png")
        }
    }

    @Test("a JPEG header claiming 65000×65000 is refused")
    func hugeJPEGHeader() throws {
        var bytes = try Fixtures.bytes("qrcode-15-photo.jpg")
        let sof = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        for offset in [sof + 5, sof + 7] {
            bytes[offset] = 0xFD
            bytes[offset + 1] = 0xE8
        } // 65000
        #expect(throws: ImageError.tooManyPixels(path: "huge.jpg", width: 65000, height: 65000, limit: 40_000_000)) {
            try ImageLoader.decode(bytes, path: "huge.jpg")
        }
    }

    @Test("a PGM header claiming 100000×100000 is refused")
    func hugePGMHeader() throws {
        let bytes = Array("P5\n100000 100000\n255\n".utf8) + [0, 0, 0]
        #expect(throws: ImageError.tooManyPixels(path: "huge.pgm", width: 100_000, height: 100_000, limit: 40_000_000)) {
            try ImageLoader.decode(bytes, path: "huge.pgm")
        }
    }

    @Test("a PGM with fewer pixels than its header says is damaged")
    func shortPGM() {
        let bytes = Array("P5\n10 10\n255\n".utf8) + [UInt8](repeating: 9, count: 50)
        #expect(throws: ImageError.damaged(path: "short.pgm", format: "PGM", detail: "100 bytes of pixels expected, 50 present")) {
            try ImageLoader.decode(bytes, path: "short.pgm")
        }
    }

    @Test("a missing path gives the system's reason")
    func missingPath() {
        #expect(throws: ImageError.unreadable(path: "/nonexistent/x.png", reason: "No such file or directory")) {
            try ImageLoader.load(path: "/nonexistent/x.png")
        }
    }

    @Test("a file over the size limit is refused without reading it")
    func fileTooLarge() throws {
        let path = Fixtures.sample("frame-1280x720-none.jpg")
        let limits = ImageLimits(maxFileBytes: 1000)
        #expect(throws: ImageError.self) { try ImageLoader.load(path: path, limits: limits) }
    }

    @Test("every error message names the file")
    func messagesNameTheFile() {
        let errors: [ImageError] = [
            .unreadable(path: "a.png", reason: "Permission denied"), .isDirectory(path: "a.png"), .empty(path: "a.png"),
            .fileTooLarge(path: "a.png", bytes: 2, limit: 1), .unknownFormat(path: "a.png", detail: "x"),
            .formatNotRead(path: "a.png", format: "HEIC", advice: "x"),
            .tooManyPixels(path: "a.png", width: 9, height: 9, limit: 1), .damaged(path: "a.png", format: "PNG", detail: "x")
        ]
        for error in errors {
            #expect(error.localizedDescription.hasPrefix("a.png: "))
        }
    }
}
