import Foundation
@testable import Scanning
import Testing

/// Text that is right: QR character sets, Code 39 full ASCII, and the config keys.
struct TextRuleTests {
    private func text(of name: String, fullASCII: Bool = false) throws -> [String] {
        var config = DecoderConfig()
        config.code39FullASCII = fullASCII
        return try BarcodeDecoder(config: config).decode(try ImageLoader.load(path: Fixtures.sample(name))).map(\.text)
    }

    @Test("a QR code in Kanji mode without ECI is read as Shift_JIS by both engines")
    func kanji() throws {
        #expect(try text(of: "qrcode-44-kanji.png") == ["資産番号テスト"])
        #expect(CodeText.matrixText(from: [0x93, 0xFA, 0x96, 0x7B]) == "日本")
    }

    @Test("bytes that are neither UTF-8 nor two-byte Shift_JIS are ISO-8859-1")
    func latin1Fallback() {
        #expect(CodeText.matrixText(from: Array("Caf".utf8) + [0xE9]) == "Café")
        #expect(CodeText.matrixText(from: [0xB1, 0x41]) == "±A")
    }

    @Test("Code 39 full ASCII is expanded only when configured")
    func code39FullASCII() throws {
        #expect(try text(of: "code39-40-fullascii.png", fullASCII: true) == ["Tag-a1+b/x"])
        #expect(try text(of: "code39-40-fullascii.png") == ["T+A+G-+A1/K+B/O+X"])
        #expect(Code39FullASCII.expand("%U$M/Z%V") == "\u{0}\r:@")
        #expect(Code39FullASCII.expand("AB$1") == nil)
        #expect(Code39FullASCII.expand("AST-0042") == "AST-0042")
    }

    @Test("engines, code39FullASCII and gs1Text come from the config, with defaults")
    func configKeys() throws {
        let empty = try JSONDecoder().decode(DecoderConfig.self, from: Data("{}".utf8))
        #expect(empty.engines == [.zxing, .zbar])
        #expect(empty.code39FullASCII == false)
        #expect(empty.gs1Text == .parentheses)
        let given = try JSONDecoder().decode(
            DecoderConfig.self,
            from: Data(
                #"{"engines": ["zbar"], "code39FullASCII": true, "gs1Text": "fnc1"}"#.utf8))
        #expect(given.engines == [.zbar] && given.code39FullASCII && given.gs1Text == .fnc1)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(DecoderConfig.self, from: Data(#"{"engines": ["zxng"]}"#.utf8))
        }
        #expect(throws: DecoderError.self) { try DecoderConfig(engines: []).validate() }
        #expect(throws: DecoderError.self) { try DecoderConfig(symbologies: [.datamatrix], engines: [.zbar]).validate() }
    }
}
