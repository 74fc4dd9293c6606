import Foundation
import Scanning
import TestKit
import Testing

/// poppler-utils (pdftotext, pdfinfo, pdftoppm) as child processes, and the built executable.
enum Poppler {
    /// A fresh folder under the system's temporary folder.
    static func scratch() throws -> URL {
        let url = Scratch.root.appendingPathComponent("document-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func tool(_ name: String, _ arguments: [String]) async throws -> ChildOutput {
        let output = try await Child.run("/usr/bin/\(name)", arguments, timeout: .seconds(120))
        guard output.status == 0 else { throw ChildError("\(name) \(arguments.joined(separator: " ")) failed: \(output.stderr)") }
        return output
    }

    /// The text of one page (1-based), or of every page when page is nil, in reading layout.
    static func text(_ pdf: URL, page: Int? = nil) async throws -> String {
        var arguments = ["-layout", "-enc", "UTF-8"]
        if let page { arguments += ["-f", "\(page)", "-l", "\(page)"] }
        return try await tool("pdftotext", arguments + [pdf.path, "-"]).stdout
    }

    /// pdfinfo's fields.
    static func info(_ pdf: URL) async throws -> [String: String] {
        var fields: [String: String] = [:]
        for line in try await tool("pdfinfo", [pdf.path]).lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    /// The box of every word of one page, in points from the top left (pdftotext -bbox).
    static func wordBoxes(_ pdf: URL, page: Int) async throws -> [CGRect] {
        let html = try await tool("pdftotext", ["-bbox", "-f", "\(page)", "-l", "\(page)", pdf.path, "-"]).stdout
        let pattern = try NSRegularExpression(pattern: #"<word xMin="([0-9.]+)" yMin="([0-9.]+)" xMax="([0-9.]+)" yMax="([0-9.]+)">"#)
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { match in
            let value = { (index: Int) in Double((html as NSString).substring(with: match.range(at: index))) ?? 0 }
            return CGRect(x: value(1), y: value(2), width: value(3) - value(1), height: value(4) - value(2))
        }
    }

    static func pages(_ pdf: URL) async throws -> Int { Int(try await info(pdf)["Pages"] ?? "") ?? -1 }

    /// One page rendered in grey at `dpi`, loaded by our image loader.
    static func render(_ pdf: URL, page: Int, dpi: Int = 300) async throws -> GrayImage {
        let stem = pdf.deletingPathExtension().path + "-p\(page)-\(dpi)"
        _ = try await tool("pdftoppm", ["-gray", "-r", "\(dpi)", "-f", "\(page)", "-l", "\(page)", "-singlefile", pdf.path, stem])
        return try ImageLoader.load(path: stem + ".pgm")
    }

    /// The built `audit-station` next to the test bundle.
    static let station: URL = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(), Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL
        ]
        for folder in candidates {
            let url = folder.appendingPathComponent("audit-station")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return candidates[0].appendingPathComponent("audit-station")
    }()

    static func station(_ arguments: [String], input: String = "") async throws -> ChildOutput {
        try await Child.run(station.path, arguments, input: Data(input.utf8), timeout: .seconds(300))
    }
}

extension GrayImage {
    /// The part of the image in the rectangle (pixels), clipped to the image.
    func crop(x: Int, y: Int, width: Int, height: Int) -> GrayImage {
        let left = max(0, x)
        let top = max(0, y)
        let right = min(self.width, x + width)
        let bottom = min(self.height, y + height)
        var pixels: [UInt8] = []
        pixels.reserveCapacity(max(0, right - left) * max(0, bottom - top))
        for row in top..<bottom { pixels += self.pixels[(row * self.width + left)..<(row * self.width + right)] }
        return GrayImage(width: right - left, height: bottom - top, pixels: pixels)
    }
}
