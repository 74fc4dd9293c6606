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
        guard status == VP8_STATUS_OK else { throw damaged(path, "its header cannot be read (libwebp status \(status.rawValue))") }
        guard features.has_animation == 0 else {
            throw .formatNotRead(path: path, format: "Animated WebP", advice: "save one frame of it as PNG or JPEG")
        }
        let width = Int(features.width), height = Int(features.height)
        try limits.check(
            path: path, width: width, height: height, dataBytes: bytes.count, format: "WebP", pixelsPerByte: ImageLimits.maxWebPPixelsPerByte)
        var decodedWidth: Int32 = 0, decodedHeight: Int32 = 0
        if features.has_alpha != 0 {
            let rgba = bytes.withUnsafeBufferPointer { WebPDecodeRGBA($0.baseAddress, $0.count, &decodedWidth, &decodedHeight) }
            guard let rgba else { throw damaged(path, "libwebp could not decode its pixels") }
            defer { WebPFree(rgba) }
            guard Int(decodedWidth) == width, Int(decodedHeight) == height else { throw damaged(path, "its size changed while decoding") }
            return GrayImage.onWhite(rgba: rgba, width: width, height: height, stride: width * 4)
        } else {
            var u: UnsafeMutablePointer<UInt8>?, v: UnsafeMutablePointer<UInt8>?
            var stride: Int32 = 0, uvStride: Int32 = 0
            let luma = bytes.withUnsafeBufferPointer {
                WebPDecodeYUV($0.baseAddress, $0.count, &decodedWidth, &decodedHeight, &u, &v, &stride, &uvStride)
            }
            guard let luma else { throw damaged(path, "libwebp could not decode its pixels") }
            defer { WebPFree(luma) }
            guard Int(decodedWidth) == width, Int(decodedHeight) == height, Int(stride) >= width else {
                throw damaged(path, "its size changed while decoding")
            }
            var pixels = [UInt8](repeating: 255, count: width * height)
            pixels.withUnsafeMutableBufferPointer { target in
                for row in 0..<height {
                    (target.baseAddress! + row * width).update(from: luma + row * Int(stride), count: width)
                }
            }
            return GrayImage(width: width, height: height, pixels: pixels)
        }
    }

    private static func damaged(_ path: String, _ detail: String) -> ImageError {
        .damaged(path: path, format: "WebP", detail: detail)
    }
}
