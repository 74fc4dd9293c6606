/// Bounds that keep a hostile or broken file from exhausting memory.
public struct ImageLimits: Sendable, Equatable {
    /// The largest file read into memory.
    public var maxFileBytes: Int
    /// The most pixels (width × height) an image may have; the greyscale copy takes one
    /// byte per pixel, a colour decode briefly three.
    public var maxPixels: Int

    /// The most memory a decoder may take for one image beyond its greyscale result: the whole
    /// image of DCT coefficients that a progressive or multi-scan JPEG needs while it decodes.
    public var maxDecoderBytes: Int

    public init(maxFileBytes: Int = 64 << 20, maxPixels: Int = 40_000_000, maxDecoderBytes: Int = 160 << 20) {
        self.maxFileBytes = maxFileBytes
        self.maxPixels = maxPixels
        self.maxDecoderBytes = maxDecoderBytes
    }

    /// Compressed formats hold at most this many pixels per byte of file: deflate cannot do
    /// better than about 1,032 to 1, and a baseline JPEG needs at least two bits for each 8×8
    /// block. A header that claims more than that is a lie or a truncated file, refused before
    /// any memory is given to it.
    static let maxPixelsPerByte = 1_100

    /// A lossless WebP repeats whole runs of earlier pixels (a code's plain margins, rows alike)
    /// for a few bits each: a real label compresses past 1,100 to 1, but not past this.
    static let maxWebPPixelsPerByte = 100_000

    /// The size check, plus: the file's `dataBytes` could really hold that many pixels (at most
    /// `pixelsPerByte` a byte).
    func check(
        path: String, width: Int, height: Int, dataBytes: Int, format: String, pixelsPerByte: Int = maxPixelsPerByte
    ) throws(ImageError) {
        try check(path: path, width: width, height: height)
        let (room, overflow) = dataBytes.multipliedReportingOverflow(by: pixelsPerByte)
        guard overflow || width * height <= room else {
            throw .damaged(
                path: path, format: format,
                detail: "the header claims \(width)×\(height) pixels but the file holds only \(dataBytes) bytes")
        }
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
