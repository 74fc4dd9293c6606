/// Finds the codes in a greyscale image. Owns one zbar scanner, so it is not `Sendable`:
/// make one per thread or task.
///
/// A first pass runs zbar on the image as it is. When that finds nothing and
/// `config.retry` is on, further passes run on transformed copies (`RetryPass`) until one
/// finds a code. Every pass goes through `SymbolFilter`, which drops reads that could be wrong.
public final class BarcodeDecoder {
    public let config: DecoderConfig
    private let scanner: ZBarScanner

    public init(config: DecoderConfig = .init()) throws(DecoderError) {
        try config.validate()
        self.config = config
        self.scanner = try ZBarScanner(config: config)
    }

    public func decode(_ image: GrayImage) -> [DecodedCode] {
        let first = decodePass(PassImage(image: image, originalWidth: image.width, originalHeight: image.height))
        guard first.isEmpty, config.retry, image.width > 0, image.height > 0 else { return first }
        for pass in RetryPass.allCases {
            guard let copy = pass.apply(to: image) else { continue }
            let codes = decodePass(copy)
            if !codes.isEmpty { return codes }
        }
        return []
    }

    /// The first pass only: what a camera loop that cannot afford retries would use.
    public func decodeOnce(_ image: GrayImage) -> [DecodedCode] {
        decodePass(PassImage(image: image, originalWidth: image.width, originalHeight: image.height))
    }

    private func decodePass(_ pass: PassImage) -> [DecodedCode] {
        let symbols = SymbolFilter(minLinearQuality: config.minLinearQuality).accepted(scanner.scan(pass.image))
        return symbols.map { symbol in
            DecodedCode(text: CodeText.text(from: symbol.bytes), symbology: symbol.symbology,
                        points: SymbolFilter.outline(of: symbol).map(pass.original), quality: symbol.quality)
        }
    }
}
