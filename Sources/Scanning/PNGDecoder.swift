import CPNG

/// Decodes PNG through libpng's simplified API into 8-bit grey, composited onto white.
/// Owns the `png_image` control structure and frees it in `deinit`.
final class PNGDecoder {
    private var control = png_image()

    init() {
        control.version = cpng_image_version()
    }

    deinit { png_image_free(&control) }

    static func isPNG(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    func decode(_ bytes: [UInt8], path: String, limits: ImageLimits) throws(ImageError) -> GrayImage {
        let started = bytes.withUnsafeBytes { buffer in
            png_image_begin_read_from_memory(&control, buffer.baseAddress, buffer.count)
        }
        guard started != 0 else { throw damaged(path) }
        let width = Int(control.width), height = Int(control.height)
        // Over `maxPixels`, the grey is read whole and averaged down, as a large JPEG is read
        // reduced: libpng cannot decode at a smaller size. The whole grey is bounded by
        // `maxDecoderBytes` (one byte a pixel), so a PNG of up to 167 megapixels is read.
        let factor = try limits.reduction(path: path, width: width, height: height)
        try limits.checkRoom(
            path: path, width: width, height: height, dataBytes: bytes.count, format: "PNG", pixelsPerByte: ImageLimits.maxPixelsPerByte)
        if width * height > limits.maxDecoderBytes {
            throw .tooManyPixels(path: path, width: width, height: height, limit: limits.maxDecoderBytes)
        }
        control.format = UInt32(PNG_FORMAT_GRAY)
        var pixels = [UInt8](repeating: 0, count: width * height)
        var white = png_color(red: 255, green: 255, blue: 255)
        let finished = pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&control, &white, buffer.baseAddress, Int32(width), nil)
        }
        guard finished != 0 else { throw damaged(path) }
        guard factor > 1 else { return GrayImage(width: width, height: height, pixels: pixels) }
        var image = pixels.withUnsafeBufferPointer { GrayImage.averaged($0.baseAddress!, stride: width, width: width, height: height, by: factor) }
        image.fileScale = factor
        return image
    }

    private func damaged(_ path: String) -> ImageError {
        let message = withUnsafeBytes(of: control.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return .damaged(path: path, format: "PNG", detail: "libpng: \(message.isEmpty ? "unknown error" : message)")
    }
}
