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

    @Test("Latin text that is not UTF-8 is ISO-8859-1")
    func latin1Fallback() {
        #expect(CodeText.matrixText(from: Array("Caf".utf8) + [0xE9]) == "Café")
        #expect(CodeText.matrixText(from: Array("Ångström-Lab-3".data(using: .isoLatin1) ?? Data())) == "Ångström-Lab-3")
        #expect(CodeText.matrixText(from: Array("AST-42".utf8)) == "AST-42")
    }

    @Test(
        "the character set is guessed as zxing does: half-width katakana alone are Shift_JIS, so are many Latin-1 symbols",
        arguments: [
            ([0xB1, 0xB2, 0xB3, 0xB4], "ｱｲｳｴ"), // katakana only, no two-byte character
            ([0x41, 0xB1, 0xB2], "Aｱｲ"), // exactly two katakana side by side
            ([0xB1, 0x41], "ｱA"), // a Latin-1 symbol in every other byte: zxing says Shift_JIS
            (Array("AST-12".utf8) + [0xB1] + Array("A-0000".utf8), "AST-12±A-0000"), // one symbol in 13 bytes: Latin-1
            ([0x00, 0x1B, 0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA], "\u{0}\u{1B}日本語") // control bytes before kanji
        ] as [([UInt8], String)])
    func guessedCharacterSet(_ bytes: [UInt8], _ expected: String) {
        #expect(CodeText.matrixText(from: bytes) == expected)
    }

    @Test("bytes that fit no character set as a whole (binary bytes, then Kanji mode) give no text of their own")
    func noCharacterSet() {
        #expect(CodeText.matrixText(from: [0xFE, 0x80, 0xA0, 0xFF, 0x93, 0xFA, 0x96, 0x7B]) == nil)
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
