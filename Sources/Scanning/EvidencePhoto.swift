import Foundation

/// The camera frame of a scan as evidence: a greyscale JPEG of at most `maxBytes` (200 KB).
/// The quality steps down from 75 until it fits; a frame that still does not fit at 35 is
/// halved in size and tried again, so any camera's frame fits.
public enum EvidencePhoto {
    public static let maxBytes = 200 * 1024

    public static func jpeg(_ frame: GrayImage, maxBytes: Int = maxBytes) -> [UInt8]? {
        guard let encoder = JPEGEncoder() else { return nil }
        var image = frame
        for _ in 0..<6 {
            for quality in [75, 60, 45, 35] {
                guard let bytes = encoder.encode(image, quality: quality) else { return nil }
                if bytes.count <= maxBytes { return bytes }
            }
            guard image.width >= 32, image.height >= 32 else { return nil }
            image = image.resized(width: image.width / 2, height: image.height / 2)
        }
        return nil
    }
}
