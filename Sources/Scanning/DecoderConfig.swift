/// How the `BarcodeDecoder` reads images. Embedded in the station configuration under the key
/// `"decoder"`; every key is optional and falls back to the default below.
///
/// ```json
/// {"symbologies": ["qrcode", "code128"], "density": 2, "maxScanWidth": 640, "zbarRegions": true, "retry": true,
///  "retryPasses": ["contrast", "invert"], "minLinearQuality": 2, "engines": ["zxing", "zbar"],
///  "code39FullASCII": false, "code32": false, "gs1Text": "parentheses"}
/// ```
public struct DecoderConfig: Codable, Sendable, Equatable {
    /// The symbologies to look for. Fewer is faster and leaves less room for wrong reads.
    public var symbologies: [Symbology] = Symbology.assetTagDefaults
    /// zbar scans every `density`-th row and column. 1 is the most thorough, 2 about halves the
    /// time on a frame with no code and still reads codes taller and wider than a few lines.
    public var density: Int = DecoderConfig.defaultDensity
    /// zbar's first pass scans images wider than this at a reduced size (averaged down by a
    /// whole factor), which keeps a 720p camera frame fast; zxing always reads the first pass
    /// at full size. Still images also get a full-size pass when the first finds nothing.
    /// 0 scans every image at full size with both engines.
    public var maxScanWidth: Int = 640
    /// On a first pass over an image wider than `maxScanWidth`, zbar also reads at full size
    /// the parts with bars or modules in them (`RegionFinder`): small, distant codes that the
    /// reduction blurs away. Skipped on a busy image where those parts cover more than 40%.
    public var zbarRegions: Bool = true
    /// When the first pass finds nothing, try again on transformed copies of the image
    /// (contrast-stretched, inverted, scaled, sharpened, rotated). Useful for still images;
    /// a camera loop that gets a new frame every 33 ms may prefer `false`.
    public var retry: Bool = true
    /// The retry passes, in the order they are tried. Their reads are pooled, so that a linear
    /// code read by one engine can be confirmed by another pass; on the reduced copy of a large
    /// photo the Data Matrix strips go first and the first QR code or Data Matrix read ends them.
    public var retryPasses: [RetryPass] = RetryPass.allCases
    /// The number of scan lines that must agree before a linear code without a mandatory
    /// check character (Code 39, Codabar, ITF, UPC-E) is accepted.
    public var minLinearQuality: Int = 2
    /// The decoding engines to run on every pass. With both, a code they read differently is
    /// dropped, and what they agree on is confirmed. Data Matrix needs `zxing`.
    public var engines: [DecodeEngine] = DecoderConfig.defaultEngines
    /// Expand Code 39 full ASCII pairs (`+A` → `a`, `%U` → NUL, …). Off: most asset tags are
    /// plain Code 39, where `$`, `%`, `/` and `+` mean themselves.
    public var code39FullASCII: Bool = false
    /// Report a Code 39 that is a Code 32 (Italian pharmacode: six characters whose nine digits
    /// pass its check) as `A` and the nine digits, as printed under it. Off: asset tags are not
    /// pharmacodes, and one six-character tag in ten would pass that check.
    public var code32: Bool = false
    /// GS1 data as `(01)…` (as printed) or with FNC1 as `\u{1D}`.
    public var gs1Text: GS1Text = .parentheses

    public init(
        symbologies: [Symbology] = Symbology.assetTagDefaults, density: Int = DecoderConfig.defaultDensity, maxScanWidth: Int = 640,
        zbarRegions: Bool = true, retry: Bool = true, retryPasses: [RetryPass] = RetryPass.allCases, minLinearQuality: Int = 2,
        engines: [DecodeEngine] = DecoderConfig.defaultEngines, code39FullASCII: Bool = false, code32: Bool = false, gs1Text: GS1Text = .parentheses
    ) {
        self.symbologies = symbologies
        self.density = density
        self.maxScanWidth = maxScanWidth
        self.zbarRegions = zbarRegions
        self.retry = retry
        self.retryPasses = retryPasses
        self.minLinearQuality = minLinearQuality
        self.engines = engines
        self.code39FullASCII = code39FullASCII
        self.code32 = code32
        self.gs1Text = gs1Text
    }

    public static let defaultDensity = 2
    public static let defaultEngines: [DecodeEngine] = [.zxing, .zbar]

    private enum CodingKeys: String, CodingKey {
        case symbologies, density, maxScanWidth, zbarRegions, retry, retryPasses, minLinearQuality, engines, code39FullASCII, code32, gs1Text
    }

    public init(from decoder: any Decoder) throws {
        let defaults = DecoderConfig()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        symbologies = try container.decodeIfPresent([Symbology].self, forKey: .symbologies) ?? defaults.symbologies
        density = try container.decodeIfPresent(Int.self, forKey: .density) ?? defaults.density
        maxScanWidth = try container.decodeIfPresent(Int.self, forKey: .maxScanWidth) ?? defaults.maxScanWidth
        zbarRegions = try container.decodeIfPresent(Bool.self, forKey: .zbarRegions) ?? defaults.zbarRegions
        retry = try container.decodeIfPresent(Bool.self, forKey: .retry) ?? defaults.retry
        retryPasses = try container.decodeIfPresent([RetryPass].self, forKey: .retryPasses) ?? defaults.retryPasses
        minLinearQuality =
            try container.decodeIfPresent(Int.self, forKey: .minLinearQuality)
            ?? defaults.minLinearQuality
        engines = try container.decodeIfPresent([DecodeEngine].self, forKey: .engines) ?? defaults.engines
        code39FullASCII = try container.decodeIfPresent(Bool.self, forKey: .code39FullASCII) ?? defaults.code39FullASCII
        code32 = try container.decodeIfPresent(Bool.self, forKey: .code32) ?? defaults.code32
        gs1Text = try container.decodeIfPresent(GS1Text.self, forKey: .gs1Text) ?? defaults.gs1Text
    }

    /// Checks the values a decoder needs; `BarcodeDecoder.init` calls it.
    public func validate() throws(DecoderError) {
        if symbologies.isEmpty { throw .noSymbologies }
        if engines.isEmpty { throw .invalidSetting("engines must name at least one of: zxing, zbar") }
        if !engines.contains(.zxing), symbologies.allSatisfy({ $0 == .datamatrix }) {
            throw .invalidSetting("datamatrix is read only by the zxing engine; add \"zxing\" to engines")
        }
        if !(1...8).contains(density) { throw .invalidSetting("density must be between 1 and 8, not \(density)") }
        if !(0...16384).contains(maxScanWidth) {
            throw .invalidSetting("maxScanWidth must be 0 (off) or a width in pixels up to 16384, not \(maxScanWidth)")
        }
        if !(1...100).contains(minLinearQuality) {
            throw .invalidSetting("minLinearQuality must be between 1 and 100, not \(minLinearQuality)")
        }
    }
}
