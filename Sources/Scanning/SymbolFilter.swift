/// Drops reads that may be wrong. For an audit a wrong read is worse than none: it marks
/// the wrong asset.
///
/// - A linear code without a mandatory check character needs `minLinearQuality` scan lines
///   that agree on it.
/// - Reads that overlap but disagree are ambiguous: the strongest survives only when it has
///   at least four times the support of the runner-up, otherwise all of them are dropped.
/// - A linear read inside a QR code is noise from the QR modules and is dropped.
struct SymbolFilter {
    var minLinearQuality: Int

    func accepted(_ symbols: [RawSymbol]) -> [RawSymbol] {
        let strong = symbols.filter { !$0.symbology.isWeaklyChecked || $0.quality >= minLinearQuality }
        let qrBoxes = strong.filter { $0.symbology == .qrcode }.map(Self.box)
        let linear = strong.filter { symbol in
            symbol.symbology != .qrcode && !qrBoxes.contains { $0.intersects(Self.box(symbol)) }
        }
        var kept = strong.filter { $0.symbology == .qrcode }
        for symbol in linear {
            let rivals = linear.filter { $0 != symbol && Self.box($0).intersects(Self.box(symbol)) }
            guard let strongestRival = rivals.map(\.quality).max() else {
                kept.append(symbol)
                continue
            }
            if symbol.quality >= 4 * strongestRival { kept.append(symbol) }
        }
        return kept
    }

    /// Four corners: zbar's for a QR code, the rectangle around the scan hits otherwise.
    static func outline(of symbol: RawSymbol) -> [CodePoint] {
        if symbol.symbology == .qrcode, symbol.points.count == 4 { return symbol.points }
        let box = box(symbol)
        return [CodePoint(x: box.minX, y: box.minY), CodePoint(x: box.maxX, y: box.minY),
                CodePoint(x: box.maxX, y: box.maxY), CodePoint(x: box.minX, y: box.maxY)]
    }

    struct Box {
        var minX: Int, minY: Int, maxX: Int, maxY: Int

        /// Overlap, with a small margin so that a code's own scan lines always meet.
        func intersects(_ other: Box, margin: Int = 4) -> Bool {
            minX - margin <= other.maxX && other.minX - margin <= maxX
                && minY - margin <= other.maxY && other.minY - margin <= maxY
        }
    }

    static func box(_ symbol: RawSymbol) -> Box {
        guard let first = symbol.points.first else { return Box(minX: 0, minY: 0, maxX: 0, maxY: 0) }
        var box = Box(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)
        for point in symbol.points.dropFirst() {
            box.minX = min(box.minX, point.x)
            box.maxX = max(box.maxX, point.x)
            box.minY = min(box.minY, point.y)
            box.maxY = max(box.maxY, point.y)
        }
        return box
    }
}
