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
    /// Which view of the original this is: two reads by one engine of the same view are one reading.
    var pass: ReadingView.Pass = .full

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

/// A second-chance pass that `BarcodeDecoder` tries, in the configured order, when the first
/// pass finds nothing. Each one skips images it cannot help (so it costs nothing there).
public enum RetryPass: String, Sendable, Codable, CaseIterable {
    /// The 1st–99th percentile range stretched to full range (faded or low-contrast prints).
    case contrastStretched = "contrast"
    /// Dark and light swapped (light codes on dark labels).
    case inverted = "invert"
    /// Half size: averages away noise and blur on large codes.
    case halved = "half"
    /// Double size: small codes whose modules are barely two pixels wide.
    case doubled = "double"
    /// Each pixel replaced by its 3×3 mean (grainy, noisy images).
    case smoothed = "smooth"
    /// Each pixel replaced by the mean of 9 pixels in its column, then in its row: noise
    /// fades while bars that run across that direction stay sharp.
    case smoothedVertically = "smooth-vertical", smoothedHorizontally = "smooth-horizontal"
    /// Unsharp mask (slight blur).
    case sharpened = "sharpen"
    /// Black and white against the local mean (uneven light, shadows).
    case thresholded = "threshold"
    /// Turned 45° both ways (linear codes at steep angles, whose bars a horizontal or
    /// vertical scan line leaves before crossing them all).
    case rotatedLeft = "rotate-left", rotatedRight = "rotate-right"
    /// Motion blur undone along the rows (the camera moved sideways while the shutter was open),
    /// or down the columns: its length estimated from the image (`motionBlurLength`), then a
    /// Richardson–Lucy deconvolution of a blur that long. Skipped when the image shows no length.
    case deblurredHorizontally = "deblur-horizontal", deblurredVertically = "deblur-vertical"
    /// Data Matrix codes off the image's middle row, which libzxing 1.4's detector never looks
    /// at (labels in a corner of a photo): a Data Matrix–only read of `DataMatrixStrips`, each
    /// strip with its middle row on another row of a part with modules, cut from the image
    /// thresholded against its local mean (as `threshold`: glare and uneven light). zxing's
    /// try-rotate is on for it, for labels turned 90° or 180°.
    case dataMatrixStrips = "datamatrix-strips"

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let value = RetryPass(rawValue: name) else {
            let known = RetryPass.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "unknown retry pass \"\(name)\"; use one of: \(known)")
        }
        self = value
    }

    /// The most pixels any pass may make, and the most relative to the image it starts from:
    /// a pass never costs more than a few times the first one, whatever the shape of the image
    /// (a 1×65,000 strip turned 45° would need a canvas of two billion pixels).
    static let maxPixels = 32_000_000
    static let maxGrowth = 4

    /// The most pixels all the retry scans of one image may cover together (the full-size rescan
    /// included). A small photo gets every pass; a 30-megapixel image, which a 40 KB PNG can
    /// claim, gets only the first passes that fit, so that no file holds the decoder for minutes.
    static let maxPixelsPerImage = 64_000_000

    /// A photo larger than this gets its retry passes on a copy averaged down to at most this
    /// many pixels (a 12-megapixel photo by 3, to 1333×1000), and those passes scan at most
    /// `reducedRetryBudget` pixels together: four passes on that copy (contrast, invert, half,
    /// smooth), which with the Data Matrix strips cost 110–125 ms of one core on a photo with no
    /// code; five cost 155–160 ms there on a slower hour of this machine, over the 150 ms budget
    /// (docs/FIGURES.md). Smaller images get every pass at full size.
    static let maxRetryPixels = 1_500_000
    static let reducedRetryBudget = 4_500_000

    /// Room of its own for the `datamatrix-strips` pass on the reduced copy, besides
    /// `reducedRetryBudget`: the other passes use that budget up. Counted as one pass over the
    /// copy, it reads for Data Matrix alone with one engine (`DataMatrixStrips`), and it is the
    /// only pass that reads a Data Matrix off the copy's middle row.
    static let reducedStripsBudget = maxRetryPixels

    /// The passes of `passes` that run on the reduced copy `base` of a large photo: the Data
    /// Matrix strips first, within `reducedStripsBudget`, then the others in their order, within
    /// `reducedRetryBudget`. The strips go first because the retries there end at the first QR
    /// code or Data Matrix read (`BarcodeDecoder.decodeWithRetries`): a label the other passes
    /// cannot read would otherwise wait for all of them (a Data Matrix with glare, 180 ms of
    /// retries on a 12-megapixel photo with the strips last), while the strips cost a QR code
    /// that a later pass reads about 30 ms (docs/FIGURES.md).
    static func reducedPlan(_ passes: [RetryPass], for base: GrayImage) -> [RetryPass] {
        let others = plan(passes.filter { $0 != .dataMatrixStrips }, for: base, alreadyScanned: 0, budget: reducedRetryBudget)
        let strips = plan(passes.filter { $0 == .dataMatrixStrips }, for: base, alreadyScanned: 0, budget: reducedStripsBudget)
        return strips + others
    }

    /// The whole factor that brings `image` within `maxRetryPixels`: 1 when it is already.
    static func reduction(for image: GrayImage) -> Int {
        let pixels = Double(image.width) * Double(image.height)
        guard pixels > Double(maxRetryPixels) else { return 1 }
        return Int((pixels / Double(maxRetryPixels)).squareRoot().rounded(.up))
    }

    /// The passes of `passes`, in order, that apply to `image` and fit in what is left of
    /// `maxPixelsPerImage` after `alreadyScanned` pixels; a pass too large to fit is skipped and
    /// a smaller one after it may still run.
    static func plan(_ passes: [RetryPass], for image: GrayImage, alreadyScanned: Int, budget: Int = maxPixelsPerImage) -> [RetryPass] {
        var left = budget - alreadyScanned
        return passes.filter { pass in
            guard let (width, height) = pass.outputSize(of: image), pass.fitsBudget(width, height, image), width * height <= left else {
                return false
            }
            left -= width * height
            return true
        }
    }

    func apply(to image: GrayImage) -> PassImage? {
        guard let (width, height) = outputSize(of: image), fitsBudget(width, height, image) else { return nil }
        var copy = transform(image)
        copy?.pass = .retry(self)
        return copy
    }

    /// At most `maxPixels`, and at most `maxGrowth` times the image it starts from.
    private func fitsBudget(_ width: Int, _ height: Int, _ image: GrayImage) -> Bool {
        let (area, input) = (width.multipliedReportingOverflow(by: height), image.width * image.height)
        return !area.overflow && area.partialValue <= Self.maxPixels && area.partialValue <= max(input, 1) * Self.maxGrowth
    }

    /// The size the pass would make, or nil when it does not apply to this image. The Data Matrix
    /// strips count as one pass over the image: see `DataMatrixStrips` for their cost.
    func outputSize(of image: GrayImage) -> (Int, Int)? {
        switch self {
        case .halved:
            return min(image.width, image.height) >= 240 ? (image.width / 2, image.height / 2) : nil
        case .doubled:
            return max(image.width, image.height) <= 1024 ? (image.width * 2, image.height * 2) : nil
        case .rotatedLeft, .rotatedRight:
            let diagonal = (Double(image.width) + Double(image.height)) * 0.5.squareRoot()
            return diagonal < 1e6 ? (Int(diagonal.rounded(.up)), Int(diagonal.rounded(.up))) : nil
        default:
            return (image.width, image.height)
        }
    }

    private func transform(_ image: GrayImage) -> PassImage? {
        let plain = { (copy: GrayImage) in
            PassImage(image: copy, originalWidth: image.width, originalHeight: image.height)
        }
        switch self {
        case .contrastStretched:
            return image.contrastStretched().map(plain)
        case .inverted:
            return plain(image.inverted())
        case .halved:
            return PassImage(
                image: image.resized(width: image.width / 2, height: image.height / 2),
                scale: 0.5, originalWidth: image.width, originalHeight: image.height)
        case .doubled:
            return PassImage(
                image: image.resized(width: image.width * 2, height: image.height * 2),
                scale: 2, originalWidth: image.width, originalHeight: image.height)
        case .smoothed:
            return plain(image.smoothed())
        case .smoothedVertically:
            return plain(image.lineMeans(radius: 4, vertical: true))
        case .smoothedHorizontally:
            return plain(image.lineMeans(radius: 4, vertical: false))
        case .sharpened:
            return plain(image.sharpened())
        case .thresholded, .dataMatrixStrips:
            return plain(image.locallyThresholded(radius: max(8, min(image.width, image.height) / 16)))
        case .rotatedLeft, .rotatedRight:
            let degrees: Double = self == .rotatedLeft ? 45 : -45
            return PassImage(
                image: image.rotated(degrees: degrees), rotation: degrees,
                originalWidth: image.width, originalHeight: image.height)
        case .deblurredHorizontally, .deblurredVertically:
            let vertical = self == .deblurredVertically
            return image.motionBlurLength(vertical: vertical).map { plain(image.deblurred(length: $0, vertical: vertical)) }
        }
    }
}
