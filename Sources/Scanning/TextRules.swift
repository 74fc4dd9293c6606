import CZXing

/// The text of each engine's read, by the configured rules, so that both engines produce the
/// same text for the same code and the two can be compared.
struct TextRules {
    var symbologies: Set<Symbology>
    var code39FullASCII: Bool
    var code32: Bool
    var gs1Text: GS1Text

    init(config: DecoderConfig) {
        symbologies = Set(config.symbologies)
        code39FullASCII = config.code39FullASCII
        code32 = config.code32
        gs1Text = config.gs1Text
    }

    /// zbar's read. A QR code's text is guessed from its bytes (`CodeText.matrixText`); bytes
    /// that fit no character set as a whole give an empty text, which is never reported on its
    /// own but matches zxing's read of the same bytes (`DecodedCode.isSameCode`).
    func code(from symbol: RawSymbol, points: [CodePoint], pass: ReadingView.Pass) -> DecodedCode {
        let matrix = symbol.symbology.isMatrix
        var text = matrix ? CodeText.matrixText(from: symbol.bytes) ?? "" : CodeText.text(from: symbol.bytes)
        if symbol.isGS1, gs1Text == .parentheses, let hri = Self.gs1HRI(text) { text = hri }
        return DecodedCode(
            text: finished(text, symbol.symbology), symbology: symbol.symbology, points: points,
            quality: symbol.quality, engines: [.zbar], views: [ReadingView(engine: .zbar, pass: pass)],
            content: matrix ? symbol.bytes : [])
    }

    /// zxing-cpp's read. A QR or Data Matrix code's text is zxing-cpp's own: it follows ECI and
    /// decodes each segment in its character set (Kanji mode as Shift_JIS, byte segments
    /// guessed together by the same heuristic as `CharacterSetGuess`).
    func code(from symbol: ZXingSymbol, points: [CodePoint], pass: ReadingView.Pass) -> DecodedCode {
        var symbology = symbol.symbology
        var text: String
        if !symbol.gs1.isEmpty {
            text = gs1Text == .parentheses ? symbol.gs1 : symbol.text
        } else if symbol.hasECI || symbology.isMatrix {
            text = symbol.text
        } else {
            text = CodeText.text(from: symbol.bytes)
        }
        if symbology == .upca, !symbologies.contains(.upca) {
            // zbar reads UPC-A as EAN-13 when UPC-A is off; so do we.
            symbology = .ean13
            text = "0" + text
        }
        return DecodedCode(
            text: finished(text, symbology), symbology: symbology, points: points,
            quality: max(1, symbol.lineCount), engines: [.zxing], views: [ReadingView(engine: .zxing, pass: pass)],
            content: symbology.isMatrix && !symbol.hasECI && symbol.gs1.isEmpty ? symbol.bytes : [])
    }

    private func finished(_ text: String, _ symbology: Symbology) -> String {
        guard symbology == .code39 else { return text }
        if code32, let pharmacode = Code32.pharmacode(text) { return pharmacode }
        guard code39FullASCII else { return text }
        return Code39FullASCII.expand(text) ?? text
    }

    /// `(01)…(10)…` from GS1 element strings, through zxing-cpp's table of AIs.
    static func gs1HRI(_ data: String) -> String? {
        var out = [CChar](repeating: 0, count: 4096)
        let utf8 = Array(data.utf8)
        let length = utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { czx_gs1_hri($0.baseAddress, $0.count, &out, out.count) }
        }
        guard length > 0 else { return nil }
        return String(decoding: out.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
