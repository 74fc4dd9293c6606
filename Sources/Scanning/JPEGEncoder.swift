import CTurboJPEG

/// Encodes greyscale images as JPEG through TurboJPEG (the kiosk's camera preview). Owns its
/// `tjhandle`. Calls must not overlap (callers hold a lock or keep it on one thread), which is
/// what makes sending it between threads safe.
public final class JPEGEncoder: @unchecked Sendable {
    private let handle: tjhandle

    /// Nil when TurboJPEG cannot make a compressor.
    public init?() {
        guard let handle = tjInitCompress() else { return nil }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// The image as a baseline greyscale JPEG, or nil when TurboJPEG refuses it.
    public func encode(_ image: GrayImage, quality: Int = 70) -> [UInt8]? {
        guard image.width > 0, image.height > 0, image.width <= 16_384, image.height <= 16_384 else { return nil }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle, pixels.baseAddress, Int32(image.width), 0, Int32(image.height), Int32(TJPF_GRAY.rawValue),
                &output, &size, Int32(TJSAMP_GRAY.rawValue), Int32(max(1, min(quality, 100))), Int32(TJFLAG_FASTDCT))
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output, size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
