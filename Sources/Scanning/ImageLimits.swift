/// Bounds that keep a hostile or broken file from exhausting memory.
public struct ImageLimits: Sendable, Equatable {
    /// The largest file read into memory.
    public var maxFileBytes: Int
    /// The most pixels (width × height) an image may have; the greyscale copy takes one
    /// byte per pixel, a colour decode briefly three.
    public var maxPixels: Int

    public init(maxFileBytes: Int = 64 << 20, maxPixels: Int = 40_000_000) {
        self.maxFileBytes = maxFileBytes
        self.maxPixels = maxPixels
    }

    func check(path: String, width: Int, height: Int) throws(ImageError) {
        guard width > 0, height > 0 else {
            throw .damaged(path: path, format: "image", detail: "the header gives a size of \(width)×\(height)")
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels {
            throw .tooManyPixels(path: path, width: width, height: height, limit: maxPixels)
        }
    }
}
