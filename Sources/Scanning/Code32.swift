/// Code 32 (Italian pharmacode, "codice farmaceutico"): a Code 39 of six characters that is a
/// base-32 form of nine digits, the last a check digit; printed and read as `A` and the digits.
/// Off by default (`decoder.code32`): an asset tag of six such characters would be read as a
/// pharmacode one time in ten, when its check happens to pass.
enum Code32 {
    private static let alphabet = Array("0123456789BCDFGHJKLMNPQRSTUVWXYZ")

    /// `A` and the nine digits, or nil when `code39` is not a Code 32.
    static func pharmacode(_ code39: String) -> String? {
        let characters = Array(code39)
        guard characters.count == 6 else { return nil }
        var value = 0
        for character in characters {
            guard let digit = alphabet.firstIndex(of: character) else { return nil }
            value = value * 32 + digit
        }
        guard value < 1_000_000_000 else { return nil }
        let digits = String(value).leftPadded(to: 9).compactMap(\.wholeNumberValue)
        guard digits.count == 9, checkDigit(digits.prefix(8)) == digits[8] else { return nil }
        return "A" + digits.map(String.init).joined()
    }

    /// Digits in odd places as they are, in even places doubled with their digits summed.
    static func checkDigit(_ digits: ArraySlice<Int>) -> Int {
        var sum = 0
        for (index, digit) in digits.enumerated() {
            let weighted = index % 2 == 0 ? digit : digit * 2
            sum += weighted / 10 + weighted % 10
        }
        return sum % 10
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
