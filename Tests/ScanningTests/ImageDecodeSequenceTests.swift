import Foundation
import Scanning
import Testing

struct ImageDecodeSequenceTests {
    @Test("files and folders give one result per image, in order, and errors do not stop the run")
    func mixedPaths() async throws {
        let folder = try Fixtures.scratchFolder()
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        try Fixtures.write(try Fixtures.bytes("qrcode-01-clean.png"), to: folder + "/b.png")
        try Fixtures.write(try Fixtures.bytes("code128-01-clean.png"), to: folder + "/a.png")
        try Fixtures.write(try Fixtures.bytes("qrcode-40-pgm.pgm"), to: folder + "/sub/c.pgm")
        // Every format the loader reads is an image of a folder: WebP, HEIC and AVIF too.
        try Fixtures.write(try Fixtures.bytes("qrcode-49-photo.heic"), to: folder + "/sub/d.HEIC")
        try Fixtures.write(try Fixtures.bytes("qrcode-43-photo.webp"), to: folder + "/sub/e.webp")
        try Fixtures.write(try Fixtures.bytes("qrcode-58-photo.avif"), to: folder + "/sub/f.avif")
        try Fixtures.write(Array("text".utf8), to: folder + "/notes.txt") // skipped inside a folder
        try Fixtures.write([], to: folder + "/zero.jpg")
        let paths = [Fixtures.sample("ean8-01-clean.png"), folder, "/nonexistent/file.png"]
        var seen: [String] = []
        for await result in ImageDecodeSequence(paths: paths) {
            switch result.outcome {
            case .success(let codes): seen.append("\(result.path): \(codes.map(\.text).joined(separator: ","))")
            case .failure(let error): seen.append("\(result.path): error \(error)")
            }
        }
        #expect(
            seen == [
                "\(Fixtures.sample("ean8-01-clean.png")): 96385074",
                "\(folder)/a.png: AST-000456",
                "\(folder)/b.png: AST-000123",
                "\(folder)/sub/c.pgm: PGM-TAG-1",
                "\(folder)/sub/d.HEIC: AST-000123",
                "\(folder)/sub/e.webp: AST-000123",
                "\(folder)/sub/f.avif: AST-000123",
                "\(folder)/zero.jpg: error empty(path: \"\(folder)/zero.jpg\")",
                "/nonexistent/file.png: error unreadable(path: \"/nonexistent/file.png\", reason: \"No such file or directory\")"
            ])
    }

    @Test("a folder of 10,000 images is walked one file at a time in sorted order")
    func tenThousandFiles() throws {
        let folder = try Fixtures.scratchFolder()
        let tiny = Array("P5\n8 8\n255\n".utf8) + [UInt8](repeating: 200, count: 64)
        for index in (0..<10_000).reversed() {
            try Fixtures.write(tiny, to: folder + String(format: "/img-%05d.pgm", index))
        }
        var iterator = ImageDecodeSequence(paths: [folder], config: DecoderConfig(retry: false)).makeIterator()
        var count = 0
        while let result = iterator.next() {
            #expect(result.path == folder + String(format: "/img-%05d.pgm", count))
            #expect((try? result.outcome.get()) == [])
            count += 1
        }
        #expect(count == 10_000)
        try FileManager.default.removeItem(atPath: folder)
    }

    @Test("the JSON line has the file, the codes with text, symbology and points, and errors")
    func jsonLines() throws {
        let path = Fixtures.sample("qrcode-01-clean.png")
        let results = Array(ImageDecodeSequence(paths: [path, "/nonexistent.png"]))
        let found = try JSONSerialization.jsonObject(with: Data(results[0].jsonLine().utf8)) as? [String: Any]
        #expect(found?["file"] as? String == path)
        let codes = try #require(found?["codes"] as? [[String: Any]])
        #expect(codes.first?["text"] as? String == "AST-000123")
        #expect(codes.first?["symbology"] as? String == "qrcode")
        #expect((codes.first?["points"] as? [[String: Int]])?.count == 4)
        let failed = try JSONSerialization.jsonObject(with: Data(results[1].jsonLine().utf8)) as? [String: Any]
        #expect((failed?["codes"] as? [Any])?.isEmpty == true)
        #expect((failed?["error"] as? String)?.contains("No such file or directory") == true)
        #expect(!results[0].jsonLine().contains("\n"))
    }
}
