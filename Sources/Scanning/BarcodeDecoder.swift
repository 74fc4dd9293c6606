/// Finds the codes in a greyscale image. Owns one zbar scanner, so it is not `Sendable`:
/// make one per thread or task.
///
/// A first pass runs zbar on the image as it is. When that finds nothing and `config.retry`
/// is on, every configured `RetryPass` runs on a transformed copy, and their reads are pooled.
/// `SymbolFilter` then drops whatever could be a wrong read, so passes that disagree about a
/// code cancel out rather than guess.
public final class BarcodeDecoder {
    public let config: DecoderConfig
    private let scanner: ZBarScanner
    private let filter: SymbolFilter

    public init(config: DecoderConfig = .init()) throws(DecoderError) {
        try config.validate()
        self.config = config
        self.scanner = try ZBarScanner(config: config)
        self.filter = SymbolFilter(minLinearQuality: config.minLinearQuality)
    }

    public func decode(_ image: GrayImage) -> [DecodedCode] {
        let first = decodeOnce(image)
        guard first.isEmpty, config.retry, image.width > 0, image.height > 0 else { return first }
        let rescan = firstPassFactor(image) > 1
        var pooled = rescan ? candidates(full(image)) : []
        for pass in RetryPass.plan(config.retryPasses, for: image, alreadyScanned: rescan ? image.width * image.height : 0) {
            pooled += pass.apply(to: image).map(candidates) ?? []
        }
        return filter.accepted(pooled)
    }

    /// The first pass only: what a camera loop that cannot afford retries would use. An image
    /// wider than `config.maxScanWidth` is scanned averaged down.
    public func decodeOnce(_ image: GrayImage) -> [DecodedCode] {
        let factor = firstPassFactor(image)
        guard factor > 1 else { return filter.accepted(candidates(full(image))) }
        let small = image.averagedDown(by: factor)
        return filter.accepted(candidates(PassImage(image: small, scale: 1 / Double(factor),
                                                    originalWidth: image.width, originalHeight: image.height)))
    }

    private func firstPassFactor(_ image: GrayImage) -> Int {
        guard config.maxScanWidth > 0, image.width > config.maxScanWidth else { return 1 }
        return (image.width + config.maxScanWidth - 1) / config.maxScanWidth
    }

    private func full(_ image: GrayImage) -> PassImage {
        PassImage(image: image, originalWidth: image.width, originalHeight: image.height)
    }

    /// One retry pass on its own (for tuning: which pass reads which image).
    public func decode(_ image: GrayImage, pass: RetryPass) -> [DecodedCode] {
        guard let copy = pass.apply(to: image) else { return [] }
        return filter.accepted(candidates(copy))
    }

    /// zbar's reads of one pass, as text, in the original image's coordinates.
    private func candidates(_ pass: PassImage) -> [DecodedCode] {
        scanner.scan(pass.image).map { symbol in
            DecodedCode(text: CodeText.text(from: symbol.bytes), symbology: symbol.symbology,
                        points: SymbolFilter.outline(of: symbol).map(pass.original), quality: symbol.quality)
        }
    }
}
