import Foundation

/// Turns the bytes of a code into text, the same way for both engines, so their reads compare.
///
/// - QR and Data Matrix: a declared ECI character set wins (zbar, run with `ZBAR_CFG_BINARY`,
///   hands over ECI segments converted to UTF-8; zxing-cpp's text honours ECI). Otherwise the
///   bytes are UTF-8 if valid, else Shift_JIS when they are valid Shift_JIS with at least one
///   two-byte character (Kanji mode gives such bytes), else ISO-8859-1. This is the QR
///   standard's rule as zxing applies it.
/// - Linear codes: UTF-8 if valid, else ISO-8859-1 (Code 128's FNC4 characters).
///   ISO-8859-1 maps every byte to a character, so nothing is lost.
enum CodeText {
    static func text(from bytes: [UInt8]) -> String {
        let body = withoutByteOrderMark(bytes)
        if let utf8 = String(validating: body, as: UTF8.self) { return utf8 }
        return latin1(body)
    }

    /// The text of a QR or Data Matrix code whose bytes carry no ECI.
    static func matrixText(from bytes: [UInt8]) -> String {
        let body = withoutByteOrderMark(bytes)
        if let utf8 = String(validating: body, as: UTF8.self) { return utf8 }
        if let kanji = shiftJIS(body) { return kanji }
        return latin1(body)
    }

    /// The bytes as Shift_JIS, when they are valid Shift_JIS and hold a two-byte character.
    static func shiftJIS(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.contains(where: { (0x81...0x9F).contains($0) || (0xE0...0xEF).contains($0) }) else { return nil }
        return String(data: Data(bytes), encoding: .shiftJIS)
    }

    static func latin1(_ bytes: ArraySlice<UInt8>) -> String {
        var latin1 = String.UnicodeScalarView()
        latin1.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return String(latin1)
    }

    private static func withoutByteOrderMark(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
    }
}
