/// An 8-bit greyscale image, row-major, one byte per pixel (zbar's Y800).
///
/// Every frame source (image files, the V4L2 camera) produces this type and the
/// `BarcodeDecoder` consumes it, so the decoder never sees a file format or a pixel format.
public struct GrayImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height` luma bytes, row-major, no padding.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(
            width >= 0 && height >= 0 && pixels.count == width * height,
            "GrayImage needs exactly width*height bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A uniform image of the given size.
    public init(width: Int, height: Int, fill: UInt8 = 0) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: fill, count: width * height))
    }
}

extension GrayImage {
    /// The luma of a colour (ITU-R BT.601 weights), in the scale of its components.
    static func luma(_ red: Int, _ green: Int, _ blue: Int) -> Int { (299 * red + 587 * green + 114 * blue) / 1000 }
}
