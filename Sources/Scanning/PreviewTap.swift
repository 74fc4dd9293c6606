import Foundation

/// Where the camera saw codes in one decoded frame, in that frame's pixels.
public struct CodeOutlines: Sendable, Equatable, Codable {
    public struct Outline: Sendable, Equatable, Codable {
        public var text: String
        public var symbology: Symbology
        public var points: [CodePoint]
    }
    public var width: Int
    public var height: Int
    /// Empty when the frame held no code (the preview clears its outlines).
    public var codes: [Outline]
}

/// The scan loop's frames for a live preview, taken without slowing decoding: while someone
/// watches, the capture thread leaves a reference to each new frame here (no copy, no
/// encoding on that thread), and viewers take the newest when they are ready for one. The
/// decode thread reports the outlines of the codes it found.
public final class PreviewTap: @unchecked Sendable {
    private let lock = NSLock()
    private var image: GrayImage?
    private var sequence: UInt64 = 0
    private var viewers = 0
    private var outlineHandler: (@Sendable (CodeOutlines) -> Void)?
    private var lastHadCodes = false

    public init() {}

    /// Starts watching: frames are kept from now until `stopWatching()`.
    public func startWatching() { lock.withLock { viewers += 1 } }

    public func stopWatching() {
        lock.withLock {
            viewers = max(0, viewers - 1)
            if viewers == 0 { image = nil }
        }
    }

    /// The newest frame if it is newer than `after` (a sequence returned before, or 0).
    public func newest(after: UInt64) -> (image: GrayImage, sequence: UInt64)? {
        lock.withLock {
            guard let image, sequence > after else { return nil }
            return (image, sequence)
        }
    }

    /// Called on the decode thread with the outlines of every decoded frame that holds codes,
    /// and once with none when they leave the view.
    public func onOutlines(_ handler: @escaping @Sendable (CodeOutlines) -> Void) {
        lock.withLock { outlineHandler = handler }
    }

    /// Capture thread: a new frame.
    func offer(_ frame: GrayImage) {
        lock.withLock {
            guard viewers > 0 else { return }
            image = frame
            sequence &+= 1
        }
    }

    /// Decode thread: the codes of one frame.
    func report(_ codes: [DecodedCode], width: Int, height: Int) {
        let handler: (@Sendable (CodeOutlines) -> Void)? = lock.withLock {
            defer { lastHadCodes = !codes.isEmpty }
            return codes.isEmpty && !lastHadCodes ? nil : outlineHandler
        }
        handler?(
            CodeOutlines(
                width: width, height: height,
                codes: codes.map {
                    CodeOutlines.Outline(text: $0.text, symbology: $0.symbology, points: $0.points)
                }))
    }
}
