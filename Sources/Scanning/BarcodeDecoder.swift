/// Finds the codes in a greyscale image. Owns one zbar scanner and one zxing-cpp reader (the
/// `engines` of its configuration), so it is not `Sendable`: make one per thread or task.
///
/// Every pass runs each engine on the same pixels, and `EngineCombiner` puts their reads
/// together: what both read alike is confirmed, what they read differently is dropped.
/// A first pass runs on the image as it is. When that finds nothing and `config.retry` is on,
/// every configured `RetryPass` runs on a transformed copy (we scale and invert; zxing-cpp's
/// own downscaling stays off), and their reads are pooled. `SymbolFilter` then drops whatever
/// could be a wrong read. `decode` and `decodeFrame` accept EAN/UPC, ITF and Codabar only when
/// read twice (by both engines, or in two passes); `decodeOnce` does not check that.
public final class BarcodeDecoder {
    public let config: DecoderConfig
    private let zbar: ZBarScanner?
    private let zxing: ZXingReader?
    /// Data Matrix only, with try-rotate: the reader of the `datamatrix-strips` retry pass.
    private let dataMatrix: ZXingReader?
    private let filter: SymbolFilter
    private let rules: TextRules

    public init(config: DecoderConfig = .init()) throws(DecoderError) {
        try config.validate()
        self.config = config
        let zbarReads = config.symbologies.contains { $0.zbarType != nil }
        self.zbar = config.engines.contains(.zbar) && zbarReads ? try ZBarScanner(config: config) : nil
        self.zxing = config.engines.contains(.zxing) ? try ZXingReader(symbologies: config.symbologies) : nil
        let strips = config.retry && config.retryPasses.contains(.dataMatrixStrips) && config.symbologies.contains(.datamatrix)
        self.dataMatrix = config.engines.contains(.zxing) && strips ? try ZXingReader(symbologies: [.datamatrix], rotate: true) : nil
        self.filter = SymbolFilter(minLinearQuality: config.minLinearQuality)
        self.rules = TextRules(config: config)
    }

    /// Every confirmed code, with retries when the first pass finds nothing. When it finds
    /// codes, the parts of the image that look like codes and hold none of them get the first
    /// pass and the retries on their own (`moreCodes`): every code of the image is reported.
    /// Outlines are in the pixels of the image's file (`GrayImage.fileScale`).
    public func decode(_ image: GrayImage) -> [DecodedCode] {
        var found = decodeWithRetries(image)
        if config.retry, !found.isEmpty { found += moreCodes(in: image, besides: found) }
        return found.map { $0.scaled(by: image.fileScale) }
    }

    /// The first pass, and the retries when it finds nothing. A photo larger than
    /// `RetryPass.maxRetryPixels` gets its retries on a copy averaged down to that size, within
    /// `RetryPass.reducedRetryBudget` (and the Data Matrix strips within a budget of their own,
    /// `RetryPass.reducedPlan`): its first pass has read it at full size already (zxing
    /// whole, zbar where bars or modules are), and retries at full size would cost seconds.
    ///
    /// On that reduced copy the retries end at the first pass that reads a QR code or a Data
    /// Matrix (`endsReducedRetries`): their error correction needs no second reading, and the
    /// rest of the photo is `moreCodes`'s, part by part. A linear code read there goes on
    /// pooling with the later passes, which may confirm it or read a rival that drops it. An
    /// image within `maxRetryPixels` gets every pass, pooled, as before.
    func decodeWithRetries(_ image: GrayImage) -> [DecodedCode] {
        let first = decodeOnce(image)
        let found = confirmed(first, in: image)
        guard found.isEmpty, config.retry, image.width > 0, image.height > 0 else { return found }
        let factor = RetryPass.reduction(for: image)
        let base = image.averagedDown(by: factor)
        let rescan = factor == 1 && firstPassFactor(image) > 1
        var pooled = first
        if rescan { pooled += candidates(full(image)) }
        let passes =
            factor == 1
            ? RetryPass.plan(config.retryPasses, for: base, alreadyScanned: rescan ? image.width * image.height : 0)
            : RetryPass.reducedPlan(config.retryPasses, for: base)
        for pass in passes {
            pooled += reads(of: pass, in: base, firstOnly: factor > 1).map { $0.scaled(by: factor) }
            if factor > 1, Self.endsReducedRetries(filter.accepted(pooled)) { break }
        }
        return filter.accepted(pooled).filter(\.isConfirmed)
    }

    /// Whether the reads so far end a reduced copy's retries: a confirmed QR code or Data Matrix.
    static func endsReducedRetries(_ accepted: [DecodedCode]) -> Bool {
        accepted.contains { $0.isConfirmed && $0.symbology.isMatrix }
    }

    /// The first pass only: what a camera loop that cannot afford retries would use. zxing
    /// reads the image at full size (it is fast there and reads small, distant codes). On an
    /// image wider than `config.maxScanWidth`, zbar reads the whole image averaged down, and
    /// also at full size the parts where `RegionFinder` sees bars or modules
    /// (`config.zbarRegions`, unless those cover much of the image). Weak symbologies read
    /// by one engine are included: the camera confirms them over consecutive frames.
    ///
    /// With the parts at full size, zbar's vertical scan lines over the averaged-down image are
    /// `reducedColumnDensity` times as far apart as its horizontal ones: zbar's per-pixel filter
    /// is most of a 720p frame's cost, and on our samples and test frames (faint, distant, and
    /// turned 90°) they read the same codes as at `density`, with fewer lines agreeing on
    /// vertical codes (docs/FIGURES.md).
    public func decodeOnce(_ image: GrayImage) -> [DecodedCode] {
        let factor = firstPassFactor(image)
        guard factor > 1 else { return filter.accepted(candidates(full(image))) }
        let small =
            zbar == nil
            ? nil
            : PassImage(
                image: image.averagedDown(by: factor), scale: 1 / Double(factor),
                originalWidth: image.width, originalHeight: image.height, pass: .reduced)
        if config.zbarRegions, let zbar, let small, let regions = RegionFinder.regions(in: image) {
            // zbar reads the marked parts at full size (small, distant codes) and the whole frame
            // reduced (averaging smooths the noise off faint, low-contrast codes): one reading of
            // zbar's, whichever view found it.
            let sharp = zbar.scan(image, regions: regions).map { rules.code(from: $0, points: SymbolFilter.outline(of: $0), pass: .full) }
            let reduced = zbar.scan(small.image, columnDensity: Self.reducedColumnDensity * zbar.density).map {
                rules.code(from: $0, points: SymbolFilter.outline(of: $0).map(small.original), pass: small.pass)
            }
            return filter.accepted(EngineCombiner.combine(zxingCodes(full(image)), Self.oneView(sharp, reduced)))
        }
        return filter.accepted(candidates(zbar: small, zxing: full(image)))
    }

    /// How many times `config.density` apart zbar's vertical scan lines are on the averaged-down
    /// view of a first pass that also reads the marked parts at full size.
    static let reducedColumnDensity = 2

    /// What the camera loop runs on each frame: the first pass, and for a read by one engine
    /// of a symbology that a partial scan line of a longer code can produce (EAN-8, UPC-E, ITF,
    /// Codabar), a second reading of the frame (full size when the first pass was reduced,
    /// otherwise a smoothed copy); no retries. The camera's confirmation over consecutive
    /// frames does not catch a misread that every frame repeats, such as zbar reading an EAN-8
    /// out of part of a UPC-A held at 45°: that one is not read again from the second copy, so
    /// it is dropped. Other weak reads (EAN-13, UPC-A) are left to the camera's confirmation.
    /// Costs a second pass only on frames with such a read.
    public func decodeFrame(_ image: GrayImage) -> [DecodedCode] {
        let first = decodeOnce(image)
        let doubtful = first.filter { !$0.isConfirmed && $0.symbology.canBePartOfLongerCode }
        guard !doubtful.isEmpty else { return first }
        let again = confirmed(doubtful, in: image)
        return first.filter { code in !doubtful.contains { $0.isSameCode(as: code) } } + again
    }

    /// One retry pass on its own (for tuning: which pass reads which image).
    public func decode(_ image: GrayImage, pass: RetryPass) -> [DecodedCode] {
        filter.accepted(reads(of: pass, in: image))
    }

    /// Both engines' reads of a retry pass's copy of `image`; for `datamatrix-strips`, the Data
    /// Matrix reader's reads of the strips of that copy, all of them, or up to the first strip
    /// that reads one (`firstOnly`: the strips of one label overlap and read it again and again).
    private func reads(of pass: RetryPass, in image: GrayImage, firstOnly: Bool = false) -> [DecodedCode] {
        guard let copy = pass.apply(to: image) else { return [] }
        guard pass == .dataMatrixStrips else { return candidates(copy) }
        guard let dataMatrix else { return [] }
        var codes: [DecodedCode] = []
        for strip in DataMatrixStrips.strips(in: image) {
            let offset = CodePoint(x: strip.x, y: strip.y)
            let symbols = (try? dataMatrix.scan(copy.image.cropped(to: strip)).get()) ?? []
            codes += symbols.map { rules.code(from: $0, points: $0.points, pass: copy.pass).moved(by: offset) }
            if firstOnly, !filter.accepted(codes).isEmpty { break }
        }
        return codes
    }

    /// The codes of a first pass that need no more reading, plus those a second reading (the
    /// full-size image when the first was reduced, otherwise a smoothed copy) found again.
    private func confirmed(_ codes: [DecodedCode], in image: GrayImage) -> [DecodedCode] {
        guard codes.contains(where: { !$0.isConfirmed }) else { return codes }
        let second =
            firstPassFactor(image) > 1
            ? candidates(full(image))
            : RetryPass.smoothed.apply(to: image).map(candidates) ?? []
        let again = filter.accepted(codes + second)
        return again.filter { code in code.isConfirmed && (codes.contains { $0.isSameCode(as: code) } || code.engines.count > 1) }
    }

    private func firstPassFactor(_ image: GrayImage) -> Int {
        guard config.maxScanWidth > 0, image.width > config.maxScanWidth else { return 1 }
        return (image.width + config.maxScanWidth - 1) / config.maxScanWidth
    }

    private func full(_ image: GrayImage) -> PassImage {
        PassImage(image: image, originalWidth: image.width, originalHeight: image.height)
    }

    /// Both engines' reads of one pass, as text, in the original image's coordinates.
    private func candidates(_ pass: PassImage) -> [DecodedCode] { candidates(zbar: pass, zxing: pass) }

    private func candidates(zbar zbarPass: PassImage?, zxing zxingPass: PassImage?) -> [DecodedCode] {
        EngineCombiner.combine(zxingPass.map { zxingCodes($0) } ?? [], zbarPass.map(zbarCodes) ?? [])
    }

    /// One engine's reads of two views of one image as one view's: a code both found is one
    /// reading (the first view's), reads of the two that overlap and disagree are dropped, and so
    /// is an EAN-8 or UPC-E over an EAN-13 or UPC-A of either view.
    static func oneView(_ first: [DecodedCode], _ second: [DecodedCode]) -> [DecodedCode] {
        var codes = first
        for code in second where !first.contains(where: { $0.isSameCode(as: code) }) {
            let box = SymbolFilter.Box(code.points)
            let disagrees = { (other: DecodedCode) in SymbolFilter.Box(other.points).intersects(box) && !other.isExplained(by: code) }
            if codes.contains(where: disagrees) { codes.removeAll(where: disagrees) } else { codes.append(code) }
        }
        return EngineCombiner.withoutPartsOfLongerEAN(codes, read: first + second)
    }

    private func zbarCodes(_ pass: PassImage) -> [DecodedCode] {
        zbar?.scan(pass.image).map { rules.code(from: $0, points: SymbolFilter.outline(of: $0).map(pass.original), pass: pass.pass) } ?? []
    }

    private func zxingCodes(_ pass: PassImage) -> [DecodedCode] {
        zxing.flatMap { try? $0.scan(pass.image).get() }?.map { rules.code(from: $0, points: $0.points.map(pass.original), pass: pass.pass) } ?? []
    }
}
