import Foundation

/// A walk over a JPEG's markers, enough to tell an image from a file that only starts like one:
/// start of image, then segments whose lengths fit the file, a frame header (SOF) with a size
/// and 1 to 4 components, at least one scan (SOS) after it, its entropy-coded data, and the end
/// of image. Bytes after the end (some encoders pad) are allowed. It does not decode the pixels.
public enum JPEGStructure {
    /// What is wrong with `bytes` as a JPEG, or nil when its structure holds.
    public static func problem(_ bytes: Data) -> String? {
        bytes.withUnsafeBytes { walk(Array($0.bindMemory(to: UInt8.self))) }
    }

    private static func walk(_ b: [UInt8]) -> String? {
        let cut = "is a cut-off or damaged JPEG"
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return "is not a JPEG image (no start-of-image marker)" }
        var at = 2
        var frame = false
        var scans = 0
        while true {
            // A marker: FF, any fill FFs, then the code.
            guard at < b.count, b[at] == 0xFF else { return "\(cut) (no marker where one belongs, at byte \(at))" }
            while at < b.count, b[at] == 0xFF { at += 1 }
            guard at < b.count else { return "\(cut) (it ends inside a marker)" }
            let code = b[at]
            at += 1
            switch code {
            case 0xD9:
                guard frame, scans > 0 else { return "\(cut) (it ends before any image data)" }
                return nil
            case 0xD8, 0x00: return "\(cut) (a stray marker FF \(hex(code)) at byte \(at - 2))"
            case 0x01, 0xD0...0xD7: continue
            default: break
            }
            guard at + 2 <= b.count else { return "\(cut) (it ends inside a segment's length)" }
            let length = Int(b[at]) << 8 | Int(b[at + 1])
            guard length >= 2, at + length <= b.count else { return "\(cut) (segment FF \(hex(code)) runs past the end of the file)" }
            let body = b[(at + 2)..<(at + length)]
            at += length
            switch code {
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                guard body.count >= 6 else { return "\(cut) (a frame header is too short)" }
                let i = body.startIndex
                let height = Int(body[i + 1]) << 8 | Int(body[i + 2])
                let width = Int(body[i + 3]) << 8 | Int(body[i + 4])
                let components = Int(body[i + 5])
                guard width > 0, height > 0, (1...4).contains(components), body.count == 6 + 3 * components else {
                    return "\(cut) (its frame header gives no usable size or components)"
                }
                frame = true
            case 0xDA:
                guard frame else { return "\(cut) (image data before its frame header)" }
                guard let count = body.first, (1...4).contains(count), body.count == 4 + 2 * Int(count) else {
                    return "\(cut) (a scan header does not fit its length)"
                }
                scans += 1
                // The entropy-coded data runs to the next marker that is not a stuffed FF 00 or
                // a restart marker.
                while true {
                    guard at + 1 < b.count else { return "\(cut) (it ends inside the image data: no end-of-image marker)" }
                    if b[at] == 0xFF, b[at + 1] != 0x00, !(0xD0...0xD7).contains(b[at + 1]) { break }
                    at += 1
                }
            default: break
            }
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
