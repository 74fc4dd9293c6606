/// A point in image coordinates (pixels, origin at the top left).
public struct CodePoint: Sendable, Equatable, Hashable, Codable {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// One code found in an image.
public struct DecodedCode: Sendable, Equatable {
    /// The code's content as text: UTF-8 when the bytes are valid UTF-8 (after any encoding
    /// the code declares), otherwise ISO-8859-1.
    public let text: String
    public let symbology: Symbology
    /// The outline of the code in the original image: the four corners for a QR code, the
    /// corners of the rectangle around the decoded scan lines for a linear code.
    public let points: [CodePoint]
    /// The engines' confidence: for a linear code, how many scan lines agreed on this text.
    public let quality: Int
    /// The engines that read this code, sorted by name: one, or both when they agreed.
    public let engines: [DecodeEngine]
    /// In how many decoding passes (or engines) the code was read; a still image's weak
    /// symbologies need two.
    let readings: Int

    public init(
        text: String, symbology: Symbology, points: [CodePoint], quality: Int,
        engines: [DecodeEngine] = [], readings: Int = 1
    ) {
        self.text = text
        self.symbology = symbology
        self.points = points
        self.quality = quality
        self.engines = engines
        self.readings = readings
    }

    /// This code seen again by `other` (same text and symbology): support and engines added.
    func merged(with other: DecodedCode) -> DecodedCode {
        DecodedCode(
            text: text, symbology: symbology, points: points, quality: quality + other.quality,
            engines: Array(Set(engines + other.engines)).sorted(), readings: readings + other.readings)
    }

    /// Accepted without another reading: a strong symbology, or read twice.
    var isConfirmed: Bool { !symbology.needsSecondReading || readings > 1 || engines.count > 1 }
}
