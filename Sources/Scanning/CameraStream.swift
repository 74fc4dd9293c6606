import Foundation

/// What the camera is streaming, as negotiated when it was opened.
public struct CameraStream: Sendable, Equatable, Codable, CustomStringConvertible {
    public var device: String
    /// The camera's name (V4L2 card), e.g. "HD Pro Webcam C920".
    public var card: String
    /// The camera's own pixel format (fourcc), e.g. "MJPG"; libv4l2 converts it when needed.
    public var cameraFormat: String
    public var width: Int
    public var height: Int
    /// The frame rate the driver reports, when it reports one.
    public var fps: Double?
    /// Controls that were skipped or adjusted, and size fall-backs.
    public var notes: [String]

    public init(
        device: String, card: String, cameraFormat: String, width: Int, height: Int,
        fps: Double?, notes: [String]
    ) {
        self.device = device
        self.card = card
        self.cameraFormat = cameraFormat
        self.width = width
        self.height = height
        self.fps = fps
        self.notes = notes
    }

    public var description: String {
        var text = "\(device) (\(card)): \(cameraFormat) \(width)x\(height)"
        if let fps { text += " at \(fps.formatted(.number.precision(.fractionLength(0...1)))) fps" }
        if !notes.isEmpty { text += "; " + notes.joined(separator: "; ") }
        return text
    }
}
