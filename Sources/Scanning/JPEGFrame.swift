/// What a JPEG's markers say about the memory libjpeg-turbo will take to decode it. A JPEG with
/// more than one scan (progressive, or baseline with its components in separate scans) is held
/// whole as DCT coefficients while it is decoded: 128 bytes for each 8×8 block of each
/// component, six bytes a pixel at 4:4:4, twice the greyscale result on top of it.
struct JPEGFrame {
    var width: Int
    var height: Int
    /// Horizontal and vertical sampling factors of each component.
    var sampling: [(h: Int, v: Int)]
    var scans: Int
    /// Whether the file has Adobe's APP14 marker (`FF EE`, then "Adobe"): in a CMYK file, the
    /// inks are then stored inverted (255 is no ink).
    var adobe = false

    /// The bytes of the whole-image coefficient buffer, or 0 for a single-scan JPEG (decoded a
    /// row of blocks at a time).
    var coefficientBytes: Int {
        guard scans > 1, let hMax = sampling.map(\.h).max(), let vMax = sampling.map(\.v).max(), hMax > 0, vMax > 0 else { return 0 }
        // Blocks are counted in whole MCUs, as the decoder pads each component to them.
        let mcuColumns = (width + 8 * hMax - 1) / (8 * hMax), mcuRows = (height + 8 * vMax - 1) / (8 * vMax)
        return sampling.reduce(0) { $0 + mcuColumns * $1.h * mcuRows * $1.v * 128 }
    }

    /// Reads the frame header (SOFn) and counts the scans (SOS markers), stepping over the
    /// entropy-coded data; nil when there is no frame header.
    static func read(_ bytes: [UInt8]) -> JPEGFrame? {
        var frame: JPEGFrame?
        var scans = 0
        var adobe = false
        var index = 2 // after SOI
        while index + 3 < bytes.count {
            guard bytes[index] == 0xFF else {
                index += 1
                continue
            }
            let marker = bytes[index + 1]
            if marker == 0xFF || marker == 0x00 || (0xD0...0xD7).contains(marker) || marker == 0x01 {
                index += 1
                continue
            }
            if marker == 0xD9 { break }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            let body = index + 4, end = index + 2 + length
            guard length >= 2, end <= bytes.count else { break }
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame, frame == nil, length >= 8 {
                let count = Int(bytes[body + 5])
                var sampling: [(h: Int, v: Int)] = []
                for component in 0..<count where body + 6 + component * 3 + 1 < end {
                    let factors = bytes[body + 6 + component * 3 + 1]
                    sampling.append((Int(factors >> 4), Int(factors & 0x0F)))
                }
                frame = JPEGFrame(
                    width: Int(bytes[body + 3]) << 8 | Int(bytes[body + 4]),
                    height: Int(bytes[body + 1]) << 8 | Int(bytes[body + 2]), sampling: sampling, scans: 0)
            }
            if marker == 0xEE, length >= 7, Array(bytes[body..<(body + 5)]) == Array("Adobe".utf8) { adobe = true }
            if marker == 0xDA { scans += 1 }
            index = end // after SOS, the scan's data follows: the loop steps through it byte by byte
        }
        frame?.scans = scans
        frame?.adobe = adobe
        return frame
    }
}
