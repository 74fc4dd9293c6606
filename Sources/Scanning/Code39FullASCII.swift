/// Code 39 full ASCII ("extended Code 39"): the pairs `$A`…`$Z`, `%A`…`%Z`, `/A`…`/Z` and
/// `+A`…`+Z` stand for the ASCII characters plain Code 39 lacks. Applied only when
/// `decoder.code39FullASCII` is on, since most asset tags are plain Code 39 whose `$`, `%`,
/// `/` and `+` mean themselves.
enum Code39FullASCII {
    /// The expanded text, or nil when the text holds a shift character not followed by a
    /// letter it can shift (then it is not full ASCII and is kept as read).
    static func expand(_ text: String) -> String? {
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard "$%/+".unicodeScalars.contains(scalar) else {
                out.append(scalar)
                continue
            }
            guard let next = scalars.next(), let value = shifted(scalar, next) else { return nil }
            out.append(value)
        }
        return String(out)
    }

    private static func shifted(_ shift: Unicode.Scalar, _ letter: Unicode.Scalar) -> Unicode.Scalar? {
        guard (65...90).contains(letter.value) else { return nil }
        let index = letter.value - 65 // A = 0
        let value: UInt32?
        switch shift {
        case "$": value = index + 1 // $A…$Z: 0x01…0x1A
        case "+": value = index + 97 // +A…+Z: a…z
        case "/":
            switch index {
            case 0...14: value = index + 33 // /A…/O: ! … /
            case 25: value = 58 // /Z: ':'
            default: value = nil
            }
        default: // "%"
            let table: [UInt32] = [
                27, 28, 29, 30, 31, 59, 60, 61, 62, 63, 91, 92, 93, 94, 95,
                123, 124, 125, 126, 127, 0, 64, 96, 127, 127, 127
            ]
            value = table[Int(index)]
        }
        return value.flatMap(Unicode.Scalar.init)
    }
}
