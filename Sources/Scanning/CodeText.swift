import Foundation

/// Turns the bytes of a code into text, the same way for both engines, so their reads compare.
///
/// - QR and Data Matrix: a declared ECI character set wins (zbar, run with `ZBAR_CFG_BINARY`,
///   hands over ECI segments converted to UTF-8; zxing-cpp's text honours ECI). Otherwise the
///   character set is guessed from the bytes (`CharacterSetGuess`, the heuristic zxing uses):
///   UTF-8, Shift_JIS (also half-width katakana alone, bytes 0xA1–0xDF) or ISO-8859-1. Bytes that
///   fit none of them as a whole hold segments in several character sets (binary bytes, then
///   Kanji mode); only zxing-cpp, which decodes each segment on its own, can read those.
/// - Linear codes: UTF-8 if valid, else ISO-8859-1 (Code 128's FNC4 characters).
///   ISO-8859-1 maps every byte to a character, so nothing is lost.
enum CodeText {
    static func text(from bytes: [UInt8]) -> String {
        let body = withoutByteOrderMark(bytes)
        if let utf8 = String(validating: body, as: UTF8.self) { return utf8 }
        return latin1(body)
    }

    /// The text of a QR or Data Matrix code whose bytes carry no ECI, or nil when the bytes fit
    /// no character set as a whole.
    static func matrixText(from bytes: [UInt8]) -> String? {
        let body = withoutByteOrderMark(bytes)
        switch CharacterSetGuess(body).characterSet {
        case .utf8: return String(validating: body, as: UTF8.self) ?? latin1(body)
        case .shiftJIS: return String(data: Data(body), encoding: .shiftJIS) ?? latin1(body)
        case .latin1: return latin1(body)
        case nil: return nil
        }
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
