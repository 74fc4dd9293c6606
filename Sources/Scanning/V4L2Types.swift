import Foundation

import CV4L2

/// A format from VIDIOC_ENUM_FMT.
struct V4L2FormatInfo: Equatable {
    var fourcc: UInt32
    var description: String
    var emulated: Bool
    var compressed: Bool
    var name: String { V4L2Fourcc.name(fourcc) }
}

/// The format the driver settled on.
struct V4L2Format {
    let raw: cv4l2_format
    var fourcc: UInt32 { raw.fourcc }
    var width: Int { Int(raw.width) }
    var height: Int { Int(raw.height) }
    var fourccName: String { V4L2Fourcc.name(raw.fourcc) }
}

/// A dequeued buffer.
struct V4L2Buffer {
    let raw: cv4l2_buffer
    var index: UInt32 { raw.index }
    var bytesUsed: UInt32 { raw.bytes_used }
    var sequence: UInt32 { raw.sequence }
    var isCorrupt: Bool { raw.error != 0 }
    /// Seconds on CLOCK_MONOTONIC, when the driver stamped the buffer with that clock.
    var monotonicSeconds: Double? { raw.monotonic != 0 ? Double(raw.timestamp_ns) / 1e9 : nil }
}

/// Fourcc codes and their four-letter names.
enum V4L2Fourcc {
    static let grey = CV4L2_PIX_FMT_GREY
    static let yuyv = CV4L2_PIX_FMT_YUYV
    static let yuv420 = CV4L2_PIX_FMT_YUV420

    static func name(_ code: UInt32) -> String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: code >> (8 * $0)) }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    static func code(_ name: String) -> UInt32? {
        let bytes = Array(name.utf8)
        guard bytes.count == 4 else { return nil }
        return bytes.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }
}

extension CameraControl {
    var id: UInt32 {
        switch self {
        case .focusAuto: CV4L2_CID_FOCUS_AUTO
        case .focusAbsolute: CV4L2_CID_FOCUS_ABSOLUTE
        case .exposureAuto: CV4L2_CID_EXPOSURE_AUTO
        case .exposureAbsolute: CV4L2_CID_EXPOSURE_ABSOLUTE
        case .brightness: CV4L2_CID_BRIGHTNESS
        case .contrast: CV4L2_CID_CONTRAST
        case .gain: CV4L2_CID_GAIN
        case .sharpness: CV4L2_CID_SHARPNESS
        }
    }
}
