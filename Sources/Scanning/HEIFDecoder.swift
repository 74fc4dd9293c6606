import CHeif
import Foundation

/// Decodes HEIF stills through libheif (`CHeif`, a shim that catches its exceptions): HEIC, an
/// iPhone's photos, and AVIF. The primary image is read, turned and cropped as the file says,
/// into 8-bit grey; an HDR one is brought to 8 bits, and transparency is shown on white. Nothing
/// is decoded when its decoding would take more memory than the limits allow; one over
/// `maxPixels` without transparency is averaged down, as a large JPEG is read reduced.
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
        // An image with transparency takes about 6 bytes a pixel at its peak (the codec's planes,
        // then RGBA), and is bounded by them. Any other is read as its luma plane and may have up
        // to a third of the bound in pixels (55 megapixels, so an iPhone's 48-megapixel photo is
        // read); it takes about 4.5 bytes a pixel at its peak (the HEVC decoder's picture,
        // libheif's planes, then the grey), past the bound: measured, 266 MB for 48 megapixels.
        // HEIC is read from local files only, never from the network (`FrameDecoder`).
        let rgbaLimit = min(limits.maxPixels, limits.maxDecoderBytes / 6)
        let grayLimit = limits.maxDecoderBytes / 3
        var result = cheif_result()
        let status = bytes.withUnsafeBufferPointer { cheif_decode($0.baseAddress, $0.count, Int64(rgbaLimit), Int64(grayLimit), &result) }
        defer { cheif_release(&result) }
        let message = withUnsafeBytes(of: &result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let width = Int(result.width), height = Int(result.height)
        switch Int(status) {
        case Int(CHEIF_OK): break
        case Int(CHEIF_TOO_LARGE):
            throw .tooManyPixels(path: path, width: width, height: height, limit: result.has_alpha != 0 ? rgbaLimit : grayLimit)
        case Int(CHEIF_UNSUPPORTED):
            throw .damaged(path: path, format: format, detail: "it holds what libheif here cannot decode: \(message)")
        case Int(CHEIF_NO_MEMORY): throw .damaged(path: path, format: format, detail: "there was no memory to decode it (\(message))")
        default: throw .damaged(path: path, format: format, detail: message.isEmpty ? "libheif could not read it" : message)
        }
        let stride = Int(result.stride)
        if let rgba = result.rgba { return GrayImage.onWhite(rgba: rgba, width: width, height: height, stride: stride) }
        guard let gray = result.gray else { throw .damaged(path: path, format: format, detail: "its decoded pixels are missing") }
        // Over `maxPixels`, the plane is averaged down where it lies, as a JPEG is reduced.
        let factor = try limits.reduction(path: path, width: width, height: height)
        guard factor == 1 else {
            var image = GrayImage.averaged(gray, stride: stride, width: width, height: height, by: factor)
            image.fileScale = factor
            return image
        }
        return GrayImage.copied(gray, stride: stride, width: width, height: height)
    }
}
