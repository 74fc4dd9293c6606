/// Puts the two engines' reads of one pass together.
///
/// - Same symbology and text (or QR bytes) from both: one code, read by both (it needs no
///   other reading).
/// - Overlapping reads that disagree: both dropped. A wrong read marks the wrong asset, which
///   is worse than no read. Overlaps that `SymbolFilter` explains (a linear fragment inside a
///   matrix code, an EAN-8 or UPC-E part of an EAN-13) are left to it; two matrix codes of
///   different outlines (one inside the other) are two codes.
/// - zbar ignores Code 128's FNC4 (it reads `ö` as `v`): a zbar read that is the zxing read
///   with the high bit of each FNC4 character cleared is the same code, and takes zxing's text.
/// - An EAN-8 or UPC-E that overlaps an EAN-13 or UPC-A read by either engine is dropped, also when
///   that read itself was dropped: it is a part of the longer code.
/// - A read only one engine made stays, marked with that engine.
enum EngineCombiner {
    static func combine(_ first: [DecodedCode], _ second: [DecodedCode]) -> [DecodedCode] {
        guard !first.isEmpty, !second.isEmpty else { return first + second }
        var combined: [DecodedCode] = []
        var taken = Set<Int>(), dropped = Set<Int>()
        for code in first {
            if let match = second.indices.first(where: {
                !taken.contains($0) && (second[$0].isSameCode(as: code) || second[$0].lostFNC4(of: code))
            }) {
                combined.append(code.merged(with: second[match]))
                taken.insert(match)
                continue
            }
            let box = SymbolFilter.Box(code.points)
            let rivals = second.indices.filter {
                SymbolFilter.Box(second[$0].points).intersects(box) && !second[$0].isExplained(by: code)
            }
            if rivals.isEmpty { combined.append(code) } else { dropped.formUnion(rivals) }
        }
        for index in second.indices where !taken.contains(index) && !dropped.contains(index) {
            combined.append(second[index])
        }
        return withoutPartsOfLongerEAN(combined, read: first + second)
    }

    /// `codes` less every EAN-8 or UPC-E that overlaps an EAN-13 or UPC-A in `read`, whether that
    /// read was kept or dropped as a disagreement: a shorter code inside a longer one's bars is
    /// a part of it, read from some of its digits, also when the longer one's own digits are in doubt.
    static func withoutPartsOfLongerEAN(_ codes: [DecodedCode], read: [DecodedCode]) -> [DecodedCode] {
        codes.filter { code in
            let box = SymbolFilter.Box(code.points)
            return !read.contains { code.symbology.isPartOfLongerEAN($0.symbology) && SymbolFilter.Box($0.points).intersects(box) }
        }
    }
}

extension DecodedCode {
    /// The same symbology, and the same text or, for QR and Data Matrix, the same bytes (zbar
    /// cannot tell a segment's character set; zxing's text is kept, see `merged(with:)`).
    func isSameCode(as other: DecodedCode) -> Bool {
        symbology == other.symbology && (text == other.text || (!content.isEmpty && content == other.content))
    }

    /// True when this Code 128 read is `other` with every character above 0x7F lowered by
    /// 0x80: what zbar makes of FNC4 characters.
    func lostFNC4(of other: DecodedCode) -> Bool {
        guard symbology == .code128, other.symbology == .code128,
            other.text.unicodeScalars.contains(where: { (0x80...0xFF).contains($0.value) })
        else { return false }
        let lowered = other.text.unicodeScalars.map { (0x80...0xFF).contains($0.value) ? $0.value - 0x80 : $0.value }
        return text.unicodeScalars.map(\.value) == lowered
    }

    /// True when an overlap of the two reads is not a disagreement about one code.
    func isExplained(by other: DecodedCode) -> Bool {
        symbology.isMatrix != other.symbology.isMatrix
            || symbology.isPartOfLongerEAN(other.symbology) || other.symbology.isPartOfLongerEAN(symbology)
            || isOtherMatrixCode(than: other)
    }

    /// Two QR or Data Matrix codes whose outlines overlap without being one outline (a code printed
    /// inside another, or beside it): two codes, each read whole and checked by its own error
    /// correction. The same outline read as two texts is one code read two ways, and stays a
    /// disagreement.
    func isOtherMatrixCode(than other: DecodedCode) -> Bool {
        symbology.isMatrix && other.symbology.isMatrix && !SymbolFilter.Box(points).isSameRegion(as: SymbolFilter.Box(other.points))
    }
}

extension Symbology {
    var isMatrix: Bool { self == .qrcode || self == .datamatrix }
}
