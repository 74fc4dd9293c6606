import CTurboJPEG

/// Decodes JPEG through TurboJPEG straight to 8-bit grey. Owns the `tjhandle`.
final class JPEGDecoder {
    private let handle: tjhandle

    init(path: String) throws(ImageError) {
        guard let handle = tjInitDecompress() else {
            throw .decoderUnavailable(path: path, reason: "TurboJPEG could not create a decompressor")
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    static func isJPEG(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0xFF, 0xD8, 0xFF])
    }

    func decode(_ bytes: [UInt8], path: String, limits: ImageLimits) throws(ImageError) -> GrayImage {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer { buffer in
            tjDecompressHeader3(
                handle, buffer.baseAddress, UInt(buffer.count),
                &width, &height, &subsampling, &colorspace)
        }
        guard header == 0 else { throw damaged(path) }
        try limits.check(path: path, width: Int(width), height: Int(height), dataBytes: bytes.count, format: "JPEG")
        if let frame = JPEGFrame.read(bytes), frame.coefficientBytes > limits.maxDecoderBytes {
            throw .tooManyPixels(
                path: path, width: Int(width), height: Int(height),
                limit: limits.maxDecoderBytes / max(frame.coefficientBytes / max(Int(width) * Int(height), 1), 1))
        }
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height))
        // Stop at the first warning, to see what it is: a file cut short (even one closed with
        // an end marker after the cut) warns of a premature end, and is refused, because a
        // code in the missing part would silently vanish. Other warnings still give pixels,
        // so the file is decoded again, leniently.
        for flags in [Int32(TJFLAG_STOPONWARNING), 0] {
            let status = bytes.withUnsafeBufferPointer { source in
                pixels.withUnsafeMutableBufferPointer { target in
                    tjDecompress2(
                        handle, source.baseAddress, UInt(source.count), target.baseAddress,
                        width, 0, height, Int32(TJPF_GRAY.rawValue), flags)
                }
            }
            if status == 0 { break }
            let message = errorMessage()
            if tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) {
                throw .damaged(path: path, format: "JPEG", detail: "libjpeg-turbo: \(message)")
            }
            if message.lowercased().contains("premature end") {
                throw .damaged(path: path, format: "JPEG", detail: "the image data ends early (libjpeg-turbo: \(message))")
            }
            if flags == 0 { break }
        }
        return GrayImage(width: Int(width), height: Int(height), pixels: pixels)
    }

    private func errorMessage() -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }

    private func damaged(_ path: String) -> ImageError {
        .damaged(path: path, format: "JPEG", detail: "libjpeg-turbo: \(errorMessage())")
    }
}
