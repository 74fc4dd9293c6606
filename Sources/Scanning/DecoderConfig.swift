/// How the `BarcodeDecoder` reads images. Embedded in the station configuration under the key
/// `"decoder"`; every key is optional and falls back to the default below.
///
/// ```json
/// {"symbologies": ["qrcode", "code128"], "density": 2, "maxScanWidth": 640, "retry": true,
///  "retryPasses": ["contrast", "invert"], "minLinearQuality": 2}
/// ```
public struct DecoderConfig: Codable, Sendable, Equatable {
    /// The symbologies to look for. Fewer is faster and leaves less room for wrong reads.
    public var symbologies: [Symbology]
    /// zbar scans every `density`-th row and column. 1 is the most thorough, 2 about halves the
    /// time on a frame with no code and still reads codes taller and wider than a few lines.
    public var density: Int
    /// Images wider than this are first scanned at a reduced size (averaged down by a whole
    /// factor), which keeps a 720p camera frame fast. Codes too small for that scan are
    /// still read by the full-size retry pass. 0 scans every image at full size.
    public var maxScanWidth: Int
    /// When the first pass finds nothing, try again on transformed copies of the image
    /// (contrast-stretched, inverted, scaled, sharpened, rotated). Useful for still images;
    /// a camera loop that gets a new frame every 33 ms may prefer `false`.
    public var retry: Bool
    /// The retry passes, in the order they are tried; the first that finds a code wins.
    public var retryPasses: [RetryPass]
    /// The number of scan lines that must agree before a linear code without a mandatory
    /// check character (Code 39, Codabar, ITF, UPC-E) is accepted.
    public var minLinearQuality: Int

    public static let defaultDensity = 2

    public init(
        symbologies: [Symbology] = Symbology.assetTagDefaults,
        density: Int = DecoderConfig.defaultDensity,
        maxScanWidth: Int = 640,
        retry: Bool = true,
        retryPasses: [RetryPass] = RetryPass.allCases,
        minLinearQuality: Int = 2
    ) {
        self.symbologies = symbologies
        self.density = density
        self.maxScanWidth = maxScanWidth
        self.retry = retry
        self.retryPasses = retryPasses
        self.minLinearQuality = minLinearQuality
    }

    private enum CodingKeys: String, CodingKey {
        case symbologies, density, maxScanWidth, retry, retryPasses, minLinearQuality
    }

    public init(from decoder: any Decoder) throws {
        let defaults = DecoderConfig()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        symbologies = try container.decodeIfPresent([Symbology].self, forKey: .symbologies) ?? defaults.symbologies
        density = try container.decodeIfPresent(Int.self, forKey: .density) ?? defaults.density
        maxScanWidth = try container.decodeIfPresent(Int.self, forKey: .maxScanWidth) ?? defaults.maxScanWidth
        retry = try container.decodeIfPresent(Bool.self, forKey: .retry) ?? defaults.retry
        retryPasses = try container.decodeIfPresent([RetryPass].self, forKey: .retryPasses) ?? defaults.retryPasses
        minLinearQuality = try container.decodeIfPresent(Int.self, forKey: .minLinearQuality)
            ?? defaults.minLinearQuality
    }

    /// Checks the values a decoder needs; `BarcodeDecoder.init` calls it.
    public func validate() throws(DecoderError) {
        if symbologies.isEmpty { throw .noSymbologies }
        if !(1...8).contains(density) { throw .invalidSetting("density must be between 1 and 8, not \(density)") }
        if !(0...16384).contains(maxScanWidth) {
            throw .invalidSetting("maxScanWidth must be 0 (off) or a width in pixels up to 16384, not \(maxScanWidth)")
        }
        if !(1...100).contains(minLinearQuality) {
            throw .invalidSetting("minLinearQuality must be between 1 and 100, not \(minLinearQuality)")
        }
    }
}
