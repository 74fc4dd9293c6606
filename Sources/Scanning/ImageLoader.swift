import Foundation

/// Loads PNG, JPEG, WebP, HEIC, AVIF and PGM/PPM files into a `GrayImage`. The format comes from the file's
/// first bytes, never from its name. Every failure is an `ImageError` that names the file.
public enum ImageLoader {
    public static func load(path: String) throws(ImageError) -> GrayImage {
        try load(path: path, limits: ImageLimits())
    }

    public static func load(path: String, limits: ImageLimits) throws(ImageError) -> GrayImage {
        let bytes = try ImageFile.contents(of: path, limit: limits.maxFileBytes)
        return try decode(bytes, path: path, limits: limits)
    }

    /// Decodes image bytes already in memory; `path` only labels errors.
    public static func decode(_ bytes: [UInt8], path: String, limits: ImageLimits = ImageLimits()) throws(ImageError) -> GrayImage {
        if bytes.isEmpty { throw .empty(path: path) }
        if PNGDecoder.isPNG(bytes) { return try PNGDecoder().decode(bytes, path: path, limits: limits) }
        if JPEGDecoder.isJPEG(bytes) { return try JPEGDecoder(path: path).decode(bytes, path: path, limits: limits) }
        if PNMDecoder.isPNM(bytes) { return try PNMDecoder.decode(bytes, path: path, limits: limits) }
        if WebPDecoder.isWebP(bytes) { return try WebPDecoder.decode(bytes, path: path, limits: limits) }
        if let format = HEIFDecoder.format(bytes) { return try HEIFDecoder.decode(bytes, format: format, path: path, limits: limits) }
        if let format = otherFormat(bytes) { throw .formatNotRead(path: path, format: format, advice: "save or convert it as PNG or JPEG") }
        throw .unknownFormat(path: path, detail: describe(bytes))
    }

    /// What the file starts with, for the error message.
    private static func describe(_ bytes: [UInt8]) -> String {
        let head = bytes.prefix(8)
        let printable = head.allSatisfy { (0x20...0x7E).contains($0) || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if printable {
            let text = String(decoding: head, as: UTF8.self).replacingOccurrences(of: "\n", with: "\\n")
            return "it starts with the text \"\(text)\""
        }
        return "it starts with bytes " + head.map { String($0, radix: 16).leftPadded(to: 2) }.joined(separator: " ")
    }
}

extension ImageLoader {
    /// The name of a well-known image (or document) format that is not read here, by its first bytes.
    static func otherFormat(_ bytes: [UInt8]) -> String? {
        func starts(_ text: String, at offset: Int = 0) -> Bool {
            let expected = Array(text.utf8)
            return bytes.count >= offset + expected.count && Array(bytes[offset..<(offset + expected.count)]) == expected
        }
        if starts("GIF87a") || starts("GIF89a") { return "GIF" }
        if starts("BM") && bytes.count > 14 && bytes[6..<10].allSatisfy({ $0 == 0 }) { return "BMP" }
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if starts("%PDF-") { return "PDF" }
        return nil
    }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
