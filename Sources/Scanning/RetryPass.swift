import Foundation

/// A transformed copy of an image and the way back from its coordinates to the original's.
struct PassImage {
    var image: GrayImage
    /// Pass pixels per original pixel.
    var scale: Double = 1
    /// Counter-clockwise turn applied to the original, in degrees.
    var rotation: Double = 0
    var originalWidth: Int
    var originalHeight: Int

    func original(_ point: CodePoint) -> CodePoint {
        var x = Double(point.x), y = Double(point.y)
        if rotation != 0 {
            let radians = rotation * .pi / 180
            let dx = x - Double(image.width) / 2, dy = y - Double(image.height) / 2
            x = cos(radians) * dx - sin(radians) * dy + Double(originalWidth) * scale / 2
            y = sin(radians) * dx + cos(radians) * dy + Double(originalHeight) * scale / 2
        }
        return CodePoint(x: Int((x / scale).rounded()), y: Int((y / scale).rounded()))
    }
}

/// The second-chance passes `BarcodeDecoder` tries, in order, when the first pass finds
/// nothing. Each one returns nil when it cannot help this image (so it costs nothing).
enum RetryPass: CaseIterable {
    case contrastStretched
    case inverted
    case halved
    case doubled
    case sharpened
    case thresholded
    case rotatedLeft
    case rotatedRight

    func apply(to image: GrayImage) -> PassImage? {
        let plain = { (copy: GrayImage) in
            PassImage(image: copy, originalWidth: image.width, originalHeight: image.height)
        }
        switch self {
        case .contrastStretched:
            return image.contrastStretched().map(plain)
        case .inverted:
            return plain(image.inverted())
        case .halved:
            guard min(image.width, image.height) >= 240 else { return nil }
            return PassImage(image: image.resized(width: image.width / 2, height: image.height / 2),
                             scale: 0.5, originalWidth: image.width, originalHeight: image.height)
        case .doubled:
            guard max(image.width, image.height) <= 1024 else { return nil }
            return PassImage(image: image.resized(width: image.width * 2, height: image.height * 2),
                             scale: 2, originalWidth: image.width, originalHeight: image.height)
        case .sharpened:
            return plain(image.sharpened())
        case .thresholded:
            return plain(image.locallyThresholded(radius: max(8, min(image.width, image.height) / 16)))
        case .rotatedLeft, .rotatedRight:
            let degrees: Double = self == .rotatedLeft ? 45 : -45
            return PassImage(image: image.rotated(degrees: degrees), rotation: degrees,
                             originalWidth: image.width, originalHeight: image.height)
        }
    }
}
