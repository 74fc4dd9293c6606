import Scanning
import Testing

/// QR codes are read as bytes and turned into text by our rules: UTF-8, otherwise the
/// declared ECI encoding, otherwise ISO-8859-1.
struct CodeTextTests {
    private func text(of name: String) throws -> [String] {
        try BarcodeDecoder().decode(try ImageLoader.load(path: Fixtures.sample(name))).map(\.text)
    }

    @Test("UTF-8 bytes without an ECI are read as UTF-8")
    func utf8() throws {
        #expect(try text(of: "qrcode-31-utf8.png") == ["Bürostuhl-42 · 资产-0042"])
    }

    @Test("ISO-8859-1 bytes without an ECI are read as ISO-8859-1, not guessed as Big5 or SJIS")
    func latin1() throws {
        #expect(try text(of: "qrcode-32-latin1.png") == ["Ångström-Lab-3"])
        #expect(try text(of: "qrcode-33-latin1-cafe.png") == ["Café-Kasse-7"])
    }

    @Test(
        "a declared ECI encoding is honoured",
        arguments: [
            ("qrcode-34-eci-greek.png", "Γραφείο-12"), ("qrcode-35-eci-utf8.png", "Größe-XL-9")
        ])
    func declaredEncoding(_ name: String, _ expected: String) throws {
        #expect(try text(of: name) == [expected])
    }
}
