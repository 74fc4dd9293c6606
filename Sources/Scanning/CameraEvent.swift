import Foundation

/// What happened to the camera, for the operator. `description` is one line to show.
public enum CameraEvent: Sendable, Equatable, CustomStringConvertible {
    /// The camera was opened for the first time and is streaming.
    case opened(CameraStream)
    /// The camera was lost, or could not be opened; the loop will retry.
    case lost(CameraError)
    /// The next attempt to open the camera comes after this wait.
    case retrying(after: Duration)
    /// The camera is streaming again after a loss.
    case resumed(CameraStream)

    public var description: String {
        switch self {
        case .opened(let stream): "camera ready: \(stream)"
        case .lost(let error): error.localizedDescription
        case .retrying(let wait):
            "retrying the camera in \((Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18).formatted(.number.precision(.fractionLength(0...1)))) s"
        case .resumed(let stream): "camera back: \(stream)"
        }
    }
}
