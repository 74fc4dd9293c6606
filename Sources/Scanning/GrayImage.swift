/// An 8-bit greyscale image, row-major, one byte per pixel (zbar's Y800).
///
/// Every frame source (image files, the V4L2 camera) produces this type and the
/// `BarcodeDecoder` consumes it, so the decoder never sees a file format or a pixel format.
public struct GrayImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height` luma bytes, row-major, no padding.
    public var pixels: [UInt8]
    /// How many of its file's pixels, across and down, each pixel stands for: 1, or 2, 4 or 8
    /// for an image with more pixels than `ImageLimits.maxPixels`, read at that reduction.
    /// `BarcodeDecoder.decode` gives the outlines of its codes in the file's pixels.
    public internal(set) var fileScale = 1

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

    /// 8-bit RGBA rows, `stride` bytes apart, as grey: each pixel's luma, composited onto white by
    /// its alpha (a label saved with a transparent background reads as printed on paper).
    static func onWhite(rgba: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int) -> GrayImage {
        var pixels = [UInt8](repeating: 255, count: width * height)
        for row in 0..<height {
            let line = rgba + row * stride
            for column in 0..<width {
                let pixel = line + column * 4
                let alpha = Int(pixel[3])
                pixels[row * width + column] = UInt8((luma(Int(pixel[0]), Int(pixel[1]), Int(pixel[2])) * alpha + 255 * (255 - alpha)) / 255)
            }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    /// A decoder's 8-bit grey or luma plane, `width`×`height` pixels whose rows are `stride` bytes
    /// apart, copied as it lies.
    static func copied(_ plane: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int) -> GrayImage {
        var pixels = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeMutableBufferPointer { target in
            for row in 0..<height { (target.baseAddress! + row * width).update(from: plane + row * stride, count: width) }
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }
}
