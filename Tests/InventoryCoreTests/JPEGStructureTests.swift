import Foundation
import InventoryCore
import Testing

/// A photo is walked marker by marker, not only checked at its first and last bytes.
@Suite("The structure of a JPEG")
struct JPEGStructureTests {
    /// 16×16 grey JPEGs written by Pillow: baseline, and progressive (several scans).
    static let baseline = Data(
        base64Encoded:
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//wAALCAAQABABAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/AN3/AJBf/Xh/6Tf/AGv/ANB/3fuX6Kof8gv/AK8P/Sb/AO1/+g/7v3P/2Q=="
    )!
    static let progressive = Data(
        base64Encoded:
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNSMj5aYVpQYEpRUk//wgALCAAQABABAREA/8QAFQABAQAAAAAAAAAAAAAAAAAABAD/2gAIAQEAAAABciP/AP/EABYQAQEBAAAAAAAAAAAAAAAAADMAEP/aAAgBAQABBQItK//EABgQAAMBAQAAAAAAAAAAAAAAAGKy4QAQ/9oACAEBAAY/AgWdBZv/xAAYEAADAQEAAAAAAAAAAAAAAAAxcfDhEP/aAAgBAQABPyGZhDkzCH//2gAIAQEAAAAQn//EABQQAQAAAAAAAAAAAAAAAAAAACD/2gAIAQEAAT8QDFj/AP/Z"
    )!

    @Test func realJPEGsPass() throws {
        #expect(JPEGStructure.problem(Self.baseline) == nil)
        #expect(JPEGStructure.problem(Self.progressive) == nil)
        #expect(JPEGStructure.problem(Self.baseline + Data(repeating: 0, count: 40)) == nil, "padding after the end of image is allowed")
        #expect(try ScanPhoto.received(scanId: "s-1", jpeg: Self.baseline, takenAt: Date()).jpeg == Self.baseline)
    }

    @Test func filesThatOnlyLookLikeAJPEGAreRefused() throws {
        let garbage = Data([0xFF, 0xD8, 0xFF, 0xE0] + (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) & 0x7F } + [0xFF, 0xD9])
        #expect(ScanPhoto.problem(garbage) == nil, "its first and last bytes are a JPEG's")
        #expect(JPEGStructure.problem(garbage)?.contains("damaged JPEG") == true)
        #expect(throws: InventoryError.self) { try ScanPhoto.received(scanId: "s-1", jpeg: garbage, takenAt: Date()) }

        // Cut in its headers, with an end-of-image marker put back.
        let cut = Self.baseline.prefix(100) + Data([0xFF, 0xD9])
        #expect(JPEGStructure.problem(cut) != nil)
        // No frame header: the headers, then straight to the end.
        let headless = Self.baseline.prefix(20) + Data([0xFF, 0xD9])
        #expect(JPEGStructure.problem(headless) != nil)
        // Cut inside the image data, without its end.
        #expect(JPEGStructure.problem(Self.baseline.prefix(Self.baseline.count - 10))?.contains("no end-of-image") == true)
        // A PNG, or nothing.
        #expect(JPEGStructure.problem(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])) != nil)
        #expect(JPEGStructure.problem(Data()) != nil)
    }
}
