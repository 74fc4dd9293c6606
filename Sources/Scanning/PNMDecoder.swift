/// Decodes Netpbm grey and colour maps: PGM (P2, P5) and PPM (P3, P6), 8 or 16 bits.
enum PNMDecoder {
    static func isPNM(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == UInt8(ascii: "P")
            && [
                UInt8(ascii: "2"), UInt8(ascii: "3"),
                UInt8(ascii: "5"), UInt8(ascii: "6")
            ].contains(bytes[1])
    }

    static func decode(_ bytes: [UInt8], path: String, limits: ImageLimits) throws(ImageError) -> GrayImage {
        let kind = bytes[1]
        let format = kind == UInt8(ascii: "2") || kind == UInt8(ascii: "5") ? "PGM" : "PPM"
        var cursor = 2
        func fail(_ detail: String) -> ImageError { .damaged(path: path, format: format, detail: detail) }
        guard let width = number(bytes, &cursor) else { throw fail("no width in the header") }
        guard let height = number(bytes, &cursor) else { throw fail("no height in the header") }
        guard let maxValue = number(bytes, &cursor) else { throw fail("no maximum value in the header") }
        guard (1...65535).contains(maxValue) else { throw fail("maximum value \(maxValue) is not 1–65535") }
        try limits.check(path: path, width: width, height: height)
        let channels = format == "PPM" ? 3 : 1
        let sampleCount = width * height * channels
        // The samples must be in the file before room is made for them: binary ones take one
        // or two bytes each, written-out ones at least a digit and a separator.
        let binary = kind == UInt8(ascii: "5") || kind == UInt8(ascii: "6")
        let needed = binary ? sampleCount * (maxValue < 256 ? 1 : 2) : sampleCount * 2 - 1
        let present = max(0, bytes.count - cursor - (binary ? 1 : 0))
        guard present >= needed else {
            throw fail("\(needed) bytes of pixels expected, \(present) present")
        }
        var samples = [Int](repeating: 0, count: sampleCount)
        if binary {
            cursor += 1 // the single whitespace byte after the header
            let sampleBytes = maxValue < 256 ? 1 : 2
            for index in 0..<sampleCount {
                let at = cursor + index * sampleBytes
                samples[index] = sampleBytes == 1 ? Int(bytes[at]) : Int(bytes[at]) << 8 | Int(bytes[at + 1])
            }
        } else {
            for index in 0..<sampleCount {
                guard let value = number(bytes, &cursor) else {
                    throw fail("\(sampleCount) values expected, \(index) present")
                }
                samples[index] = min(value, maxValue)
            }
        }
        var pixels = [UInt8](repeating: 0, count: width * height)
        for index in pixels.indices {
            let value =
                channels == 1
                ? samples[index]
                : (77 * samples[3 * index] + 150 * samples[3 * index + 1] + 29 * samples[3 * index + 2]) >> 8
            pixels[index] = UInt8(clamping: value * 255 / maxValue)
        }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    /// The next decimal number, skipping whitespace and `#` comments; nil at the end of data.
    private static func number(_ bytes: [UInt8], _ cursor: inout Int) -> Int? {
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "#") {
                while cursor < bytes.count, bytes[cursor] != 0x0A, bytes[cursor] != 0x0D { cursor += 1 }
            } else if byte == 0x20 || (0x09...0x0D).contains(byte) {
                cursor += 1
            } else {
                break
            }
        }
        var value = 0, digits = 0
        while cursor < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor]) {
            value = value * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
            digits += 1
            cursor += 1
            if digits > 9 { break } // larger than any size we accept; the limit check reports it
        }
        return digits == 0 ? nil : value
    }
}
