import Foundation

/// Rules for the identifiers that scanners and people type: asset tags and serial numbers.
public enum Identifier {
    /// Longest identifier accepted, in UTF-8 bytes. Real tags and serials are far shorter;
    /// anything longer is a stuck key, a pasted document or a misread.
    public static let maxBytes = 128

    /// Reads full-width ASCII (`ＳＧ－００２６`) as ASCII, trims whitespace and control characters
    /// at both ends, then rejects what cannot be a tag: empty text, control characters inside,
    /// or more than `maxBytes` bytes.
    public static func normalize(_ raw: String, field: String = "identifier") throws(ValidationError) -> String {
        if raw.isTrimmedPrintableASCII {
            guard raw.utf8.count <= maxBytes else {
                throw ValidationError(field: field, message: "is \(raw.utf8.count) bytes long; the limit is \(maxBytes)")
            }
            return raw
        }
        let trimSet = CharacterSet.whitespacesAndNewlines.union(.controlCharacters)
        let text = foldingFullWidth(raw).trimmingCharacters(in: trimSet)
        if text.isEmpty {
            throw ValidationError(field: field, message: "is empty")
        }
        if text.utf8.count > maxBytes {
            throw ValidationError(field: field, message: "is \(text.utf8.count) bytes long; the limit is \(maxBytes)")
        }
        if let bad = text.unicodeScalars.first(where: { CharacterSet.controlCharacters.contains($0) }) {
            throw ValidationError(field: field, message: String(format: "contains the control character U+%04X", bad.value))
        }
        return text
    }

    /// A keyboard-wedge gun types into whatever input method is on: a Chinese or Japanese one in
    /// full-width mode turns `SG-0026` into `ＳＧ－００２６`, which no label says. The full-width
    /// forms of ASCII (U+FF01–U+FF5E) and the ideographic space are read as the ASCII they stand
    /// for; every other character is kept as it is.
    public static func foldingFullWidth(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { (0xFF01...0xFF5E).contains($0.value) || $0.value == 0x3000 }) else { return text }
        var folded = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0xFF01...0xFF5E: folded.append(Unicode.Scalar(scalar.value - 0xFEE0) ?? scalar)
            case 0x3000: folded.append(" ")
            default: folded.append(scalar)
            }
        }
        return String(folded)
    }

    /// The key under which an identifier is matched: itself, or with ASCII letters folded to
    /// upper case when tags are configured to be case-insensitive. Only ASCII letters fold, as
    /// in SQLite's NOCASE, so the store and the in-memory engine always agree.
    public static func matchKey(_ identifier: String, caseSensitive: Bool) -> String {
        guard !caseSensitive, identifier.utf8.contains(where: { $0 >= 97 && $0 <= 122 }) else { return identifier }
        return String(decoding: identifier.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }
}

extension String {
    /// Printable ASCII only, with no space at either end: trimming would change nothing and no
    /// control character is inside. The checks of tags and free text take this fast path (an
    /// import checks millions of fields), and give the same answer as their general path.
    var isTrimmedPrintableASCII: Bool {
        let utf8 = self.utf8
        guard let first = utf8.first, let last = utf8.last,
            first > 0x20, first < 0x7F, last > 0x20, last < 0x7F
        else { return false }
        return utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }
}
