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
    /// The views of the image that read it: an engine and the pixels it was given.
    let views: Set<ReadingView>
    /// A QR or Data Matrix code's bytes as the engine handed them over, before any character
    /// set (empty for linear codes): reads with the same bytes are one code.
    let content: [UInt8]

    public init(text: String, symbology: Symbology, points: [CodePoint], quality: Int, engines: [DecodeEngine] = []) {
        self.init(
            text: text, symbology: symbology, points: points, quality: quality, engines: engines,
            views: Set(engines.map { ReadingView(engine: $0, pass: .full) }))
    }

    init(
        text: String, symbology: Symbology, points: [CodePoint], quality: Int, engines: [DecodeEngine],
        views: Set<ReadingView>, content: [UInt8] = []
    ) {
        self.text = text
        self.symbology = symbology
        self.points = points
        self.quality = quality
        self.engines = engines
        self.views = views
        self.content = content
    }

    /// In how many different views (an engine on some pixels) the code was read.
    var readings: Int { views.count }

    /// This code seen again by `other` (the same code): support, engines and views added. When
    /// their texts differ (the same bytes, which zbar cannot split into segments of different
    /// character sets), zxing's text is kept.
    func merged(with other: DecodedCode) -> DecodedCode {
        let keepOther = text != other.text && other.engines.contains(.zxing) && !engines.contains(.zxing)
        return DecodedCode(
            text: keepOther ? other.text : text, symbology: symbology, points: points, quality: quality + other.quality,
            engines: Array(Set(engines + other.engines)).sorted(), views: views.union(other.views),
            content: content.isEmpty ? other.content : content)
    }

    /// Accepted without another reading: a strong symbology, read by both engines, or read by
    /// one engine in two different views. The same engine on the same pixels twice is one
    /// reading: it repeats its misread.
    var isConfirmed: Bool { !symbology.needsSecondReading || engines.count > 1 || views.count > 1 }
}

/// One engine on one view of an image.
struct ReadingView: Hashable, Sendable {
    var engine: DecodeEngine
    var pass: Pass

    enum Pass: Hashable, Sendable {
        /// The image as it is, at full size (or parts of it).
        case full
        /// Averaged down for the first pass.
        case reduced
        case retry(RetryPass)
    }
}
