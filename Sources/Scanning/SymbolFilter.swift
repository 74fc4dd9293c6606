/// Drops reads that may be wrong. For an audit a wrong read is worse than none: it marks
/// the wrong asset.
///
/// - A linear code without a mandatory check character needs `minLinearQuality` scan lines
///   that agree on it.
/// - The same code found more than once (by several passes) is one code with their support added.
/// - An empty text is never a code (zxing-cpp 1.4 gives one for some mixed ECI segments; zbar's
///   QR bytes that fit no character set give one too, see `TextRules`).
/// - A linear read that overlaps a QR or Data Matrix code is noise from its modules and is dropped.
/// - QR and Data Matrix codes whose outlines overlap but differ (one printed inside the other) are
///   two codes, and both are kept.
/// - An EAN-8 or UPC-E read that overlaps an EAN-13 or UPC-A read is a part of it, and dropped.
/// - Other reads that overlap but disagree are ambiguous: the strongest survives only with at
///   least four times the support of its strongest rival, otherwise all of them are dropped. For
///   EAN/UPC, ITF, Codabar and DataBar it must also have been read by an engine that did not read
///   the rival: one engine's reads, however many, do not outvote its own other reading.
struct SymbolFilter {
    var minLinearQuality: Int

    func accepted(_ codes: [DecodedCode]) -> [DecodedCode] {
        var merged: [DecodedCode] = []
        for code in codes where !code.symbology.isWeaklyChecked || code.quality >= minLinearQuality {
            if let index = merged.firstIndex(where: { $0.isSameCode(as: code) }) {
                merged[index] = merged[index].merged(with: code)
            } else {
                merged.append(code)
            }
        }
        merged.removeAll { $0.text.isEmpty }
        return merged.filter { code in
            let box = Box(code.points)
            let rivals = merged.filter { $0 != code && Box($0.points).intersects(box) && !$0.isOtherMatrixCode(than: code) }
            return rivals.allSatisfy { survives(code, against: $0) }
        }
    }

    private func survives(_ code: DecodedCode, against rival: DecodedCode) -> Bool {
        let qr = code.symbology.isMatrix, rivalQR = rival.symbology.isMatrix
        if qr != rivalQR { return qr }
        if code.symbology.isPartOfLongerEAN(rival.symbology) { return false }
        if rival.symbology.isPartOfLongerEAN(code.symbology) { return true }
        // EAN/UPC and the like: support alone does not settle a dispute over the digits (zbar can
        // repeat a wrong UPC-E in several passes); the other engine must have read it too.
        if code.symbology.needsSecondReading, !Set(code.engines).isStrictSuperset(of: rival.engines) { return false }
        return code.quality >= 4 * rival.quality
    }

    /// Four corners: zbar's for a QR code, the rectangle around the scan hits otherwise.
    static func outline(of symbol: RawSymbol) -> [CodePoint] {
        if symbol.symbology == .qrcode, symbol.points.count == 4 { return symbol.points }
        let box = Box(symbol.points)
        return [
            CodePoint(x: box.minX, y: box.minY), CodePoint(x: box.maxX, y: box.minY),
            CodePoint(x: box.maxX, y: box.maxY), CodePoint(x: box.minX, y: box.maxY)
        ]
    }

    struct Box {
        var minX = 0, minY = 0, maxX = 0, maxY = 0

        init(_ points: [CodePoint]) {
            guard let first = points.first else { return }
            (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
            for point in points.dropFirst() {
                minX = min(minX, point.x)
                maxX = max(maxX, point.x)
                minY = min(minY, point.y)
                maxY = max(maxY, point.y)
            }
        }

        var area: Int { (maxX - minX) * (maxY - minY) }

        /// The same part of the image: they share at least half of what they cover together.
        func isSameRegion(as other: Box) -> Bool {
            let width = min(maxX, other.maxX) - max(minX, other.minX), height = min(maxY, other.maxY) - max(minY, other.minY)
            guard width > 0, height > 0 else { return false }
            let shared = width * height
            return 2 * shared >= area + other.area - shared
        }

        /// Overlap, with a small margin so that a code's own scan lines always meet.
        func intersects(_ other: Box, margin: Int = 4) -> Bool {
            minX - margin <= other.maxX && other.minX - margin <= maxX
                && minY - margin <= other.maxY && other.minY - margin <= maxY
        }
    }
}

extension Symbology {
    /// True when a read of this symbology can be a fragment of a longer EAN/UPC code.
    func isPartOfLongerEAN(_ other: Symbology) -> Bool {
        (self == .ean8 || self == .upce) && (other == .ean13 || other == .upca)
    }
}
