import CHeif
import Foundation

/// Decodes HEIF stills through libheif (`CHeif`, a shim that catches its exceptions): HEIC, an
/// iPhone's photos, and AVIF. The primary image is read, turned and cropped as the file says,
/// into 8-bit grey; an HDR one is brought to 8 bits, and transparency is shown on white. Nothing
/// is decoded when the image has more pixels than the limits allow (its pixels, and the memory
/// its decoding takes).
enum HEIFDecoder {
    /// The format a HEIF file's major brand names: AVIF (`avif`, `avis`) or HEIC (the HEVC and
    /// generic image brands); nil for any other file.
    static func format(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let brand = String(decoding: bytes[8..<12], as: UTF8.self)
        if brand == "avif" || brand == "avis" { return "AVIF" }
        return ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(brand) ? "HEIC" : nil
    }

    static func decode(_ bytes: [UInt8], format: String, path: String, limits: ImageLimits) throws(ImageError) -> GrayImage {
        // Decoding takes about 6 bytes a pixel at its peak (the codec's planes, then RGBA).
        let pixelLimit = min(limits.maxPixels, limits.maxDecoderBytes / 6)
        var result = cheif_result()
        let status = bytes.withUnsafeBufferPointer { cheif_decode($0.baseAddress, $0.count, Int64(pixelLimit), &result) }
        defer { cheif_release(&result) }
        let message = withUnsafeBytes(of: &result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let width = Int(result.width), height = Int(result.height)
        switch Int(status) {
        case Int(CHEIF_OK): break
        case Int(CHEIF_TOO_LARGE): throw .tooManyPixels(path: path, width: width, height: height, limit: pixelLimit)
        case Int(CHEIF_UNSUPPORTED):
            throw .damaged(path: path, format: format, detail: "it holds what libheif here cannot decode: \(message)")
        case Int(CHEIF_NO_MEMORY): throw .damaged(path: path, format: format, detail: "there was no memory to decode it (\(message))")
        default: throw .damaged(path: path, format: format, detail: message.isEmpty ? "libheif could not read it" : message)
        }
        guard let rgba = result.rgba else { throw .damaged(path: path, format: format, detail: "its decoded pixels are missing") }
        return GrayImage.onWhite(rgba: rgba, width: width, height: height, stride: Int(result.stride))
    }
}
