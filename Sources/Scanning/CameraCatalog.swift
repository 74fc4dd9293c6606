import Foundation

/// A V4L2 capture device as `audit-station cameras` lists it.
public struct CameraDescription: Codable, Sendable, Equatable {
    public struct Format: Codable, Sendable, Equatable {
        /// Four-letter code, e.g. "MJPG".
        public var fourcc: String
        public var description: String
        /// Offered by libv4l2's converter rather than by the camera itself.
        public var emulated: Bool
        /// Frame sizes, "WxH" for discrete sizes or "WxH-WxH" for a range.
        public var sizes: [String]
    }

    public var device: String
    public var card: String
    public var driver: String
    public var busInfo: String
    public var formats: [Format]
}

/// Finds and describes the cameras on this machine.
public enum CameraCatalog {
    /// The /dev/video* nodes, in numeric order.
    public static func devicePaths(in directory: String = "/dev") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
            .map { directory + "/" + $0 }
    }

    /// Opens the device and lists its formats and sizes. Throws for a node that is not a
    /// capture device (e.g. a UVC metadata node) or cannot be opened.
    public static func describe(device path: String, includeEmulated: Bool = false) throws(CameraError) -> CameraDescription {
        let device = try V4L2Device(path: path)
        let formats = device.formats().filter { includeEmulated || !$0.emulated }.map { format in
            CameraDescription.Format(
                fourcc: format.name, description: format.description, emulated: format.emulated,
                sizes: device.frameSizes(fourcc: format.fourcc))
        }
        return CameraDescription(
            device: path, card: device.card, driver: device.driver, busInfo: device.busInfo,
            formats: formats)
    }
}
