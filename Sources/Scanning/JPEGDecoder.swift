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
        let reduction = try limits.reduction(path: path, width: Int(width), height: Int(height))
        try limits.checkRoom(
            path: path, width: Int(width), height: Int(height), dataBytes: bytes.count, format: "JPEG", pixelsPerByte: ImageLimits.maxPixelsPerByte)
        let frame = JPEGFrame.read(bytes)
        if let frame, frame.coefficientBytes > limits.maxDecoderBytes {
            throw .tooManyPixels(
                path: path, width: Int(width), height: Int(height),
                limit: limits.maxDecoderBytes / max(frame.coefficientBytes / max(Int(width) * Int(height), 1), 1))
        }
        let cmyk = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        // libjpeg-turbo gives a CMYK file (print work, a scanner's export) only as CMYK: its
        // pixels are read as such and made grey here.
        let channels = cmyk ? 4 : 1
        let format = cmyk ? TJPF_CMYK : TJPF_GRAY
        // libjpeg-turbo reads a photo over the pixel limit at 1/2, 1/4 or 1/8 of its size, as it
        // decodes: only the reduced pixels are ever held. Each side is rounded up, as it does.
        let readWidth = Int32(ImageLimits.side(Int(width), reducedBy: reduction))
        let readHeight = Int32(ImageLimits.side(Int(height), reducedBy: reduction))
        var pixels = [UInt8](repeating: 0, count: Int(readWidth) * Int(readHeight) * channels)
        // Stop at the first warning, to see what it is: a file cut short (even one closed with
        // an end marker after the cut) warns of a premature end, and is refused, because a
        // code in the missing part would silently vanish. Other warnings still give pixels,
        // so the file is decoded again, leniently.
        for flags in [Int32(TJFLAG_STOPONWARNING), 0] {
            let status = bytes.withUnsafeBufferPointer { source in
                pixels.withUnsafeMutableBufferPointer { target in
                    tjDecompress2(
                        handle, source.baseAddress, UInt(source.count), target.baseAddress,
                        readWidth, 0, readHeight, Int32(format.rawValue), flags)
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
        if cmyk { pixels = Self.gray(fromCMYK: pixels, inverted: frame?.adobe ?? false) }
        var image = GrayImage(width: Int(readWidth), height: Int(readHeight), pixels: pixels)
        image.fileScale = reduction
        return image
    }

    /// Grey from CMYK pixels: the light each ink lets through, weighted as for RGB (`GrayImage.luma`).
    /// Adobe's CMYK files, which are nearly all of them (libjpeg writes its marker for every CMYK
    /// file), keep each ink inverted: 255 is no ink.
    static func gray(fromCMYK pixels: [UInt8], inverted: Bool) -> [UInt8] {
        var gray = [UInt8](repeating: 0, count: pixels.count / 4)
        for index in gray.indices {
            let base = index * 4
            func light(_ ink: UInt8) -> Int { inverted ? Int(ink) : 255 - Int(ink) }
            let black = light(pixels[base + 3])
            let red = light(pixels[base]) * black, green = light(pixels[base + 1]) * black, blue = light(pixels[base + 2]) * black
            gray[index] = UInt8(GrayImage.luma(red, green, blue) / 255)
        }
        return gray
    }

    private func errorMessage() -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }

    private func damaged(_ path: String) -> ImageError {
        .damaged(path: path, format: "JPEG", detail: "libjpeg-turbo: \(errorMessage())")
    }
}
