/// Bounds that keep a hostile or broken file from exhausting memory.
public struct ImageLimits: Sendable, Equatable {
    /// The largest file read into memory.
    public var maxFileBytes: Int
    /// The most pixels (width × height) an image may have; the greyscale copy takes one
    /// byte per pixel, a colour decode briefly three. An image with more is read reduced
    /// (`maxReduction`).
    public var maxPixels: Int

    /// The most memory a decoder may take for one image beyond its greyscale result: the whole
    /// image of DCT coefficients that a progressive or multi-scan JPEG needs while it decodes.
    public var maxDecoderBytes: Int

    /// How far an image with more than `maxPixels` may be reduced as it is read (2, 4 or 8
    /// times fewer pixels across and down), so that a phone's 48- or 200-megapixel photo is read
    /// at 12 megapixels instead of refused. 1 refuses it.
    public var maxReduction: Int

    public init(maxFileBytes: Int = 64 << 20, maxPixels: Int = 40_000_000, maxDecoderBytes: Int = 160 << 20, maxReduction: Int = 8) {
        self.maxFileBytes = maxFileBytes
        self.maxPixels = maxPixels
        self.maxDecoderBytes = maxDecoderBytes
        self.maxReduction = maxReduction
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
        try checkRoom(path: path, width: width, height: height, dataBytes: dataBytes, format: format, pixelsPerByte: pixelsPerByte)
    }

    /// The reduction an image of this size is read at (a JPEG as libjpeg-turbo decodes it, a
    /// HEIC's luma plane as it is averaged down): 1 within `maxPixels`, otherwise the least of 2,
    /// 4 and 8 (up to `maxReduction`) that brings it within, each side rounded up. Refused, like
    /// any image, when none does.
    func reduction(path: String, width: Int, height: Int) throws(ImageError) -> Int {
        let fits = { (factor: Int) in Self.side(width, reducedBy: factor) * Self.side(height, reducedBy: factor) <= maxPixels }
        guard width > 0, height > 0, let factor = [1, 2, 4, 8].first(where: { ($0 == 1 || $0 <= maxReduction) && fits($0) }) else {
            try check(path: path, width: width, height: height) // a size of nothing, or too many pixels at any reduction
            throw .tooManyPixels(path: path, width: width, height: height, limit: maxPixels)
        }
        return factor
    }

    /// A side of an image read `factor` times smaller, rounded up as libjpeg-turbo rounds it.
    static func side(_ length: Int, reducedBy factor: Int) -> Int { (length + factor - 1) / factor }

    /// The file's `dataBytes` could really hold `width × height` pixels (at most `pixelsPerByte` a byte).
    func checkRoom(path: String, width: Int, height: Int, dataBytes: Int, format: String, pixelsPerByte: Int) throws(ImageError) {
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
