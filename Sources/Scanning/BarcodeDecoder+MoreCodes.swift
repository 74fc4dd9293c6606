/// The rest of a still image, once its first pass has found codes: an image may hold several
/// codes, and one the first pass reads does not mean the others need no retry (a second label
/// that is inverted, faint or small). The parts of the image where `RegionFinder` sees bars or
/// modules and no code was found are cut out and decoded on their own, retries included.
extension BarcodeDecoder {
    /// The most parts cut out of one image, largest first, and the most pixels they may cover
    /// together (a share of the image, and at most `RetryPass.maxRetryPixels`): a busy photo
    /// does not pay for every edge in it.
    static let maxMoreParts = 6
    static let maxMoreShare = 0.5
    /// Parts smaller than this on a side hold no code worth a retry.
    static let minPartSide = 40
    /// Pixels of margin around each part: the quiet zone a decoder needs.
    static let partMargin = 16

    /// The codes found in the parts of `image` that bars or modules mark and no code in `found`
    /// covers, in the whole image's coordinates.
    func moreCodes(in image: GrayImage, besides found: [DecodedCode]) -> [DecodedCode] {
        guard let regions = RegionFinder.regions(in: image, maxShare: 1) else { return [] }
        let boxes = found.map { SymbolFilter.Box($0.points) }
        let parts = regions.filter { region in
            region.width >= Self.minPartSide && region.height >= Self.minPartSide
                && !boxes.contains { $0.intersects(SymbolFilter.Box(region.corners), margin: Self.partMargin) }
        }.sorted { $0.area > $1.area }.prefix(Self.maxMoreParts)
        var budget = min(Int(Self.maxMoreShare * Double(image.width * image.height)), RetryPass.maxRetryPixels)
        var more: [DecodedCode] = []
        for part in parts {
            let cut = part.grown(by: Self.partMargin, within: image)
            guard cut.area <= budget else { continue }
            budget -= cut.area
            let offset = CodePoint(x: cut.x, y: cut.y)
            more += decodeWithRetries(image.cropped(to: cut)).map { $0.moved(by: offset) }
        }
        return more.filter { code in !found.contains { $0.isSameCode(as: code) } }
    }
}

extension PixelRect {
    var corners: [CodePoint] { [CodePoint(x: x, y: y), CodePoint(x: x + width, y: y + height)] }

    func grown(by margin: Int, within image: GrayImage) -> PixelRect {
        let left = max(0, x - margin), top = max(0, y - margin)
        let right = min(image.width, x + width + margin), bottom = min(image.height, y + height + margin)
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}

extension GrayImage {
    /// The pixels of `rect` (which lies inside the image) as an image of their own.
    func cropped(to rect: PixelRect) -> GrayImage {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(rect.area)
        for row in rect.y..<(rect.y + rect.height) {
            let start = row * width + rect.x
            pixels += self.pixels[start..<(start + rect.width)]
        }
        return GrayImage(width: rect.width, height: rect.height, pixels: pixels)
    }
}

extension DecodedCode {
    /// In the coordinates of an image `factor` times larger.
    func scaled(by factor: Int) -> DecodedCode {
        guard factor != 1 else { return self }
        return DecodedCode(
            text: text, symbology: symbology, points: points.map { CodePoint(x: $0.x * factor, y: $0.y * factor) },
            quality: quality, engines: engines, views: views, content: content)
    }

    func moved(by offset: CodePoint) -> DecodedCode {
        DecodedCode(
            text: text, symbology: symbology, points: points.map { CodePoint(x: $0.x + offset.x, y: $0.y + offset.y) },
            quality: quality, engines: engines, views: views, content: content)
    }
}
