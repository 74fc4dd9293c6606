import Foundation

/// Why the camera could not be used. Each message names the device and what to do.
public enum CameraError: Error, Equatable, Sendable {
    /// The device node does not exist (no camera, or it was unplugged).
    case notFound(device: String)
    /// Another program holds the camera.
    case busy(device: String)
    /// The process may not open the device node.
    case permissionDenied(device: String)
    /// The node is not a video capture device (a metadata node, a radio, …).
    case notACaptureDevice(device: String, card: String)
    /// The device cannot stream through mmap buffers.
    case noStreaming(device: String)
    /// The camera offers no format the station can turn into grey.
    case noUsableFormat(device: String, offered: [String])
    /// The camera went away while streaming (ENODEV).
    case disconnected(device: String)
    /// No frame arrived within the select timeout.
    case stalled(device: String, seconds: Double)
    /// A V4L2 call failed.
    case systemCall(device: String, operation: String, errno: Int32)
    /// A camera configuration value is out of range.
    case invalidConfig(String)

    /// Maps the errno of a failed open or ioctl to the most helpful case.
    static func from(errno code: Int32, device: String, operation: String) -> CameraError {
        switch code {
        case ENOENT, ENXIO: .notFound(device: device)
        case EBUSY: .busy(device: device)
        case EACCES, EPERM: .permissionDenied(device: device)
        case ENODEV: .disconnected(device: device)
        default: .systemCall(device: device, operation: operation, errno: code)
        }
    }

    /// True when the camera stopped sending frames rather than failing outright.
    public var isStall: Bool {
        if case .stalled = self { return true }
        return false
    }
}

extension CameraError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .notFound(let device):
            "camera \(device) not found: plug the camera in, or set camera.device (see `audit-station cameras`)"
        case .busy(let device):
            "camera \(device) is busy: close the other program that uses it"
        case .permissionDenied(let device):
            "no permission to open camera \(device): add this user to the 'video' group"
        case .notACaptureDevice(let device, let card):
            "\(device) (\(card)) is not a video capture device: pick another with `audit-station cameras`"
        case .noStreaming(let device):
            "camera \(device) cannot stream through mmap buffers"
        case .noUsableFormat(let device, let offered):
            "camera \(device) offers no usable format (it offers \(offered.joined(separator: ", ")))"
        case .disconnected(let device):
            "camera \(device) was disconnected"
        case .stalled(let device, let seconds):
            "camera \(device) sent no frame for \(seconds) s"
        case .systemCall(let device, let operation, let code):
            "camera \(device): \(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .invalidConfig(let message):
            "invalid camera configuration: \(message)"
        }
    }
}
