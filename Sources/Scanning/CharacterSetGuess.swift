/// The character set of a QR or Data Matrix code's bytes when the code declares none: the
/// heuristic of zxing (its `StringUtils.guessEncoding`, kept by zxing-cpp's text decoder), so that
/// both engines and zxing-cpp read the same bytes as the same text.
///
/// 1. Valid UTF-8 with at least one multi-byte character: UTF-8.
/// 2. Valid Shift_JIS with a run of three or more half-width katakana (0xA1–0xDF) or two-byte
///    characters: Shift_JIS.
/// 3. Valid as both ISO-8859-1 and Shift_JIS: Shift_JIS when the text has exactly two
///    katakana, side by side, or when at least 10% of its bytes are ISO-8859-1 symbols
///    (0xA0–0xBF, × and ÷), which plain Latin text seldom has; otherwise ISO-8859-1.
/// 4. Otherwise the first that fits: ISO-8859-1, Shift_JIS, UTF-8 (plain ASCII is all three).
/// 5. None fits: nil.
struct CharacterSetGuess {
    enum CharacterSet { case utf8, shiftJIS, latin1 }

    let characterSet: CharacterSet?

    init<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        var utf8 = UTF8Check(), sjis = ShiftJISCheck()
        var latin1 = true, latin1Symbols = 0
        for byte in bytes {
            utf8.add(byte)
            sjis.add(byte)
            if (0x80...0x9F).contains(byte) {
                latin1 = false
            } else if (0xA0...0xBF).contains(byte) || byte == 0xD7 || byte == 0xF7 {
                latin1Symbols += 1
            }
        }
        let isUTF8 = utf8.isComplete, isShiftJIS = sjis.isValid
        if isUTF8, utf8.multiByteCharacters > 0 {
            characterSet = .utf8
        } else if isShiftJIS, sjis.longestKatakanaRun >= 3 || sjis.longestDoubleByteRun >= 3 {
            characterSet = .shiftJIS
        } else if latin1, isShiftJIS {
            let twoKatakana = sjis.longestKatakanaRun == 2 && sjis.katakana == 2
            characterSet = twoKatakana || latin1Symbols * 10 >= bytes.count ? .shiftJIS : .latin1
        } else if latin1 {
            characterSet = .latin1
        } else if isShiftJIS {
            characterSet = .shiftJIS
        } else if isUTF8 {
            characterSet = .utf8
        } else {
            characterSet = nil
        }
    }

    private struct UTF8Check {
        var isValid = true
        var pending = 0
        var multiByteCharacters = 0

        mutating func add(_ byte: UInt8) {
            guard isValid else { return }
            if pending > 0 {
                if byte & 0xC0 == 0x80 { pending -= 1 } else { isValid = false }
                return
            }
            switch byte {
            case 0x00...0x7F: break
            case 0xC0...0xDF: pending = 1
            case 0xE0...0xEF: pending = 2
            case 0xF0...0xF7: pending = 3
            default: isValid = false
            }
            if pending > 0 { multiByteCharacters += 1 }
        }

        var isComplete: Bool { isValid && pending == 0 }
    }

    private struct ShiftJISCheck {
        var valid = true
        var pending = 0
        var katakana = 0
        var katakanaRun = 0, longestKatakanaRun = 0
        var doubleByteRun = 0, longestDoubleByteRun = 0

        mutating func add(_ byte: UInt8) {
            guard valid else { return }
            if pending > 0 {
                if byte < 0x40 || byte == 0x7F || byte > 0xFC { valid = false } else { pending -= 1 }
                return
            }
            switch byte {
            case 0x80, 0xA0, 0xF0...0xFF:
                valid = false
            case 0xA1...0xDF:
                katakana += 1
                katakanaRun += 1
                doubleByteRun = 0
                longestKatakanaRun = max(longestKatakanaRun, katakanaRun)
            case 0x81...0xEF:
                pending = 1
                katakanaRun = 0
                doubleByteRun += 1
                longestDoubleByteRun = max(longestDoubleByteRun, doubleByteRun)
            default:
                katakanaRun = 0
                doubleByteRun = 0
            }
        }

        var isValid: Bool { valid && pending == 0 }
    }
}
