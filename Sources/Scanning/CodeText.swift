/// Turns the bytes of a code into text.
///
/// zbar runs with `ZBAR_CFG_BINARY` for QR codes: it hands over the bytes untouched, except
/// that segments under a declared ECI character set are converted from that set to UTF-8.
/// So the rule "UTF-8, otherwise the declared encoding, otherwise ISO-8859-1" becomes:
/// valid UTF-8 (which covers converted ECI segments) is used as is, anything else is read as
/// ISO-8859-1, where every byte is a character and nothing is lost.
enum CodeText {
    static func text(from bytes: [UInt8]) -> String {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }  // UTF-8 byte order mark
        if let utf8 = String(validating: body, as: UTF8.self) { return utf8 }
        var latin1 = String.UnicodeScalarView()
        latin1.append(contentsOf: body.map { Unicode.Scalar($0) })
        return String(latin1)
    }
}
