import Foundation
import Scanning
import Testing
import TestKit

/// Paths and scratch files shared by the scanning tests.
enum Fixtures {
    static let samples: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleImages").path

    static func sample(_ name: String) -> String { "\(samples)/\(name)" }

    /// Every sample image, sorted, with its expected text (nil for an image with no code).
    static let sampleImages: [SampleImage] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: samples)) ?? []
        return names.filter { ["png", "jpg", "pgm", "ppm"].contains(($0 as NSString).pathExtension) }.sorted().map { name in
            let stem = (name as NSString).deletingPathExtension
            return SampleImage(name: name, expected: try? String(contentsOfFile: "\(samples)/\(stem).txt", encoding: .utf8))
        }
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: sample(name))))
    }

    /// A fresh empty folder under the system's temporary folder.
    static func scratchFolder() throws -> String {
        try Scratch.folder("scanning-tests").path
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// CRC-32 as PNG chunks use it, to build valid headers that lie about the size.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

struct SampleImage: Sendable, CustomTestStringConvertible {
    let name: String
    /// The .txt beside the image: the code's text; for a multi-* image, one text a line.
    let expected: String?
    /// Every code the image holds (one, except in multi-* images); nil for an image with none.
    var expectedCodes: [String]? {
        guard let expected else { return nil }
        return name.hasPrefix("multi-") ? expected.split(separator: "\n").map(String.init) : [expected]
    }
    var path: String { Fixtures.sample(name) }
    var testDescription: String { name }
}
