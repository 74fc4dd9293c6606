import CZXing

/// The text of each engine's read, by the configured rules, so that both engines produce the
/// same text for the same code and the two can be compared.
struct TextRules {
    var symbologies: Set<Symbology>
    var code39FullASCII: Bool
    var gs1Text: GS1Text

    init(config: DecoderConfig) {
        symbologies = Set(config.symbologies)
        code39FullASCII = config.code39FullASCII
        gs1Text = config.gs1Text
    }

    func code(from symbol: RawSymbol, points: [CodePoint]) -> DecodedCode {
        var text = symbol.symbology == .qrcode ? CodeText.matrixText(from: symbol.bytes) : CodeText.text(from: symbol.bytes)
        if symbol.isGS1, gs1Text == .parentheses, let hri = Self.gs1HRI(text) { text = hri }
        return DecodedCode(
            text: finished(text, symbol.symbology), symbology: symbol.symbology, points: points,
            quality: symbol.quality, engines: [.zbar])
    }

    func code(from symbol: ZXingSymbol, points: [CodePoint]) -> DecodedCode {
        var symbology = symbol.symbology
        var text: String
        if !symbol.gs1.isEmpty {
            text = gs1Text == .parentheses ? symbol.gs1 : symbol.text
        } else if symbol.hasECI {
            text = symbol.text
        } else if symbology == .qrcode || symbology == .datamatrix {
            text = CodeText.matrixText(from: symbol.bytes)
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
            quality: max(1, symbol.lineCount), engines: [.zxing])
    }

    private func finished(_ text: String, _ symbology: Symbology) -> String {
        guard symbology == .code39, code39FullASCII else { return text }
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
