import CWebP

/// Decodes WebP (lossy or lossless, a still image) through libwebp into 8-bit grey: the luma
/// plane itself, or, when the image has transparency, its colours composited onto white.
enum WebPDecoder {
    static func isWebP(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8)
    }

    static func decode(_ bytes: [UInt8], path: String, limits: ImageLimits) throws(ImageError) -> GrayImage {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        guard status == VP8_STATUS_OK else { throw damaged(path, "its header cannot be read: \(describe(status))") }
        guard features.has_animation == 0 else {
            throw .formatNotRead(path: path, format: "Animated WebP", advice: "save one frame of it as PNG or JPEG")
        }
        let width = Int(features.width), height = Int(features.height)
        let factor = try limits.reduction(path: path, width: width, height: height)
        try limits.checkRoom(
            path: path, width: width, height: height, dataBytes: bytes.count, format: "WebP", pixelsPerByte: ImageLimits.maxWebPPixelsPerByte)
        return try decode(bytes, features: features, path: path, limits: limits, reducedBy: factor)
    }

    /// Decodes through libwebp's configurable decoder: as its luma plane, or as RGBA shown on
    /// white when it has transparency. Over `maxPixels` (`factor` > 1) it is decoded `factor`
    /// times smaller across and down by libwebp's own rescaler (each side rounded up, as a
    /// JPEG's), so a lossy photo takes only a few rows beyond the result. What libwebp holds
    /// whole while it decodes is bounded by `maxDecoderBytes`: a lossless image's colours (4 bytes
    /// a pixel) and a lossy image's transparency (1 byte a pixel); within `maxPixels` both fit.
    private static func decode(
        _ bytes: [UInt8], features: WebPBitstreamFeatures, path: String, limits: ImageLimits, reducedBy factor: Int
    ) throws(ImageError) -> GrayImage {
        let width = Int(features.width), height = Int(features.height)
        let heldPerPixel = features.format == 2 ? 4 : features.has_alpha != 0 ? 1 : 0
        if heldPerPixel > 0, width * height > limits.maxDecoderBytes / heldPerPixel {
            throw .tooManyPixels(path: path, width: width, height: height, limit: limits.maxDecoderBytes / heldPerPixel)
        }
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw damaged(path, "this libwebp is not the version the station was built with") }
        let newWidth = ImageLimits.side(width, reducedBy: factor), newHeight = ImageLimits.side(height, reducedBy: factor)
        if factor > 1 {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(newWidth)
            config.options.scaled_height = Int32(newHeight)
        }
        config.output.colorspace = features.has_alpha != 0 ? MODE_RGBA : MODE_YUV
        let status = bytes.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
        defer { WebPFreeDecBuffer(&config.output) }
        guard status == VP8_STATUS_OK else { throw damaged(path, "libwebp could not decode its pixels: \(describe(status))") }
        guard Int(config.output.width) == newWidth, Int(config.output.height) == newHeight else {
            throw damaged(path, "its size changed while decoding")
        }
        var image: GrayImage
        if features.has_alpha != 0 {
            let rgba = config.output.u.RGBA
            guard let pixels = rgba.rgba, Int(rgba.stride) >= newWidth * 4 else { throw damaged(path, "libwebp gave no pixels") }
            image = GrayImage.onWhite(rgba: pixels, width: newWidth, height: newHeight, stride: Int(rgba.stride))
        } else {
            let yuva = config.output.u.YUVA
            guard let luma = yuva.y, Int(yuva.y_stride) >= newWidth else { throw damaged(path, "libwebp gave no pixels") }
            image = GrayImage.copied(luma, stride: Int(yuva.y_stride), width: newWidth, height: newHeight)
        }
        image.fileScale = factor
        return image
    }

    /// libwebp's status, in words.
    static func describe(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: "its data stops short"
        case VP8_STATUS_BITSTREAM_ERROR: "its data is corrupt"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "it uses a feature this libwebp does not read"
        case VP8_STATUS_OUT_OF_MEMORY: "there was no memory to decode it"
        default: "libwebp status \(status.rawValue)"
        }
    }

    private static func damaged(_ path: String, _ detail: String) -> ImageError {
        .damaged(path: path, format: "WebP", detail: detail)
    }
}
