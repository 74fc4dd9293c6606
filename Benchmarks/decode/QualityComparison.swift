import Foundation
import Scanning

/// Reads every image of SampleImages with our decoder (both engines; zbar alone; zxing alone;
/// both on the first pass only) and with zbarimg (same symbologies), and prints per symbology:
/// images, read correctly, misread, not found. The `none` row counts false positives: images
/// with no code where something was reported. Samples named `*-fullascii` are read with
/// `code39FullASCII` on, `*-code32` with `code32` on. A `multi-*` image holds several codes (its .txt one text a line): it is
/// read right only when every one of them is reported. `--classes` groups the rows by kind of
/// damage (the name after the number: `persp25`, `motion`, …) instead of by symbology.
struct QualityComparison {
    let samples: String
    let verbose: Bool
    var passes = false
    var byClass = false

    enum Verdict: CaseIterable { case correct, misread, notFound }

    struct Tally {
        var images = 0
        var counts: [String: [Verdict: Int]] = [:]
        mutating func add(_ reader: String, _ verdict: Verdict) { counts[reader, default: [:]][verdict, default: 0] += 1 }
        func cell(_ reader: String) -> String {
            let c = counts[reader] ?? [:]
            return "\(c[.correct] ?? 0)/\(c[.misread] ?? 0)/\(c[.notFound] ?? 0)"
        }
    }

    func run() throws {
        let config = DecoderConfig()
        var fullASCII = config
        fullASCII.code39FullASCII = true
        var code32 = config
        code32.code32 = true
        func decoders(_ base: DecoderConfig) throws -> [String: BarcodeDecoder] {
            var zbar = base, zxing = base
            zbar.engines = [.zbar]
            zxing.engines = [.zxing]
            return ["both": try BarcodeDecoder(config: base), "zbar": try BarcodeDecoder(config: zbar),
                    "zxing": try BarcodeDecoder(config: zxing)]
        }
        let plain = try decoders(config), extended = try decoders(fullASCII), pharma = try decoders(code32)
        let files = try FileManager.default.contentsOfDirectory(atPath: samples)
            .filter { ["png", "jpg", "pgm", "ppm"].contains(($0 as NSString).pathExtension) }.sorted()
        let readers = ["both", "zbar", "zxing", "both-1pass", "camera", "zbarimg"]
        var tallies: [String: Tally] = [:]
        for file in files {
            let path = "\(samples)/\(file)"
            let stem = (file as NSString).deletingPathExtension
            let truth = try? String(contentsOfFile: "\(samples)/\(stem).txt", encoding: .utf8)
            let expected = truth.map { stem.hasPrefix("multi-") ? $0.split(separator: "\n").map(String.init) : [$0] }
            let group = byClass ? Self.damageClass(stem) : stem.hasPrefix("frame-") ? (expected == nil ? "none" : "frame") : String(stem.prefix { $0 != "-" })
            let image = try ImageLoader.load(path: path)
            let set = stem.hasSuffix("fullascii") ? extended : stem.hasSuffix("-code32") ? pharma : plain
            guard let decoder = set["both"], let zbar = set["zbar"], let zxing = set["zxing"] else { continue }
            let results = [
                "both": decoder.decode(image).map(\.text),
                "zbar": zbar.decode(image).map(\.text),
                "zxing": zxing.decode(image).map(\.text),
                "both-1pass": decoder.decodeOnce(image).map(\.text),
                "camera": decoder.decodeFrame(image).map(\.text),
                "zbarimg": try zbarimg(path: path, symbologies: config.symbologies.filter { $0 != .datamatrix }),
            ]
            if passes, results["both-1pass"]?.isEmpty ?? true, expected != nil {
                let found = RetryPass.allCases.map { pass in
                    let codes = decoder.decode(image, pass: pass)
                    let mark = codes.isEmpty ? "-" : codes.allSatisfy { expected?.contains($0.text) == true } ? "ok" : "WRONG"
                    return "\(pass.rawValue):\(mark)\(codes.map { "(\($0.quality))" }.joined())"
                }
                print("  \(file): " + found.joined(separator: " "))
            }
            tallies[group, default: Tally()].images += 1
            tallies["all", default: Tally()].images += 1
            for reader in readers {
                let verdict = judge(results[reader] ?? [], expected: expected)
                tallies[group, default: Tally()].add(reader, verdict)
                tallies["all", default: Tally()].add(reader, verdict)
                if verbose, verdict != .correct {
                    print("  \(reader): \(file): \(verdict) \(results[reader] ?? []) expected \(expected.map { "\($0)" } ?? "nothing")")
                }
            }
        }
        print("cells: read correctly / misread / not found   (row none: correct = nothing reported, misread = false positive)")
        print("symbology   images  " + readers.map { $0.padding(toLength: 12, withPad: " ", startingAt: 0) }.joined())
        for group in tallies.keys.sorted(by: { ($0 == "all" ? "~" : $0) < ($1 == "all" ? "~" : $1) }) {
            guard let tally = tallies[group] else { continue }
            print(group.padding(toLength: 12, withPad: " ", startingAt: 0) + String(tally.images).leftPad(6) + "  "
                  + readers.map { tally.cell($0).padding(toLength: 12, withPad: " ", startingAt: 0) }.joined())
        }
    }

    private func judge(_ texts: [String], expected: [String]?) -> Verdict {
        guard let expected else { return texts.isEmpty ? .correct : .misread }
        if texts.contains(where: { !expected.contains($0) }) { return .misread }
        return Set(texts) == Set(expected) ? .correct : .notFound
    }

    /// `qrcode-61-persp40` → `persp40`; images without such a part (clean, none, frames) by their first word.
    static func damageClass(_ stem: String) -> String {
        let parts = stem.split(separator: "-")
        guard parts.count > 2, Int(parts[1]) != nil, !stem.hasPrefix("multi-") else { return String(parts.first ?? "") }
        return parts.dropFirst(2).joined(separator: "-")
    }

    /// zbarimg's reading, with only our symbologies enabled. `--raw` prints each code's text
    /// on a line (its `--xml` base64 form is unreliable for bytes over 0x7F in zbar 0.23).
    private func zbarimg(path: String, symbologies: [Symbology]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        process.arguments = ["--raw", "-q", "-Sdisable"] + symbologies.map { "-S\($0.rawValue).enable" } + [path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return output.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }
}
