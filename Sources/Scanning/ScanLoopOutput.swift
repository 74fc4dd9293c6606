import Foundation

/// A code the scan loop accepted: held up to the camera and, for weakly checked
/// symbologies, confirmed across frames.
public struct AcceptedCode: Sendable, Equatable {
    public var text: String
    public var symbology: Symbology
    /// When the frame that completed the acceptance was captured (wall clock).
    public var capturedAt: Date
    /// True when this code was accepted before in this run and came back after being out
    /// of view for longer than `goneAfterSeconds` (the audit reports it as already scanned).
    public var isReappearance: Bool
    /// From the frame's capture (the driver's timestamp) to the moment it was accepted.
    public var latency: Duration
    /// The driver's sequence number of that frame.
    public var frameSequence: UInt32
    /// That frame (shared, not copied): kept as evidence of scans a supervisor may question.
    public var frame: GrayImage?

    public init(
        text: String, symbology: Symbology, capturedAt: Date, isReappearance: Bool,
        latency: Duration, frameSequence: UInt32, frame: GrayImage? = nil
    ) {
        self.frame = frame
        self.text = text
        self.symbology = symbology
        self.capturedAt = capturedAt
        self.isReappearance = isReappearance
        self.latency = latency
        self.frameSequence = frameSequence
    }

    /// Two acceptances are the same whatever frame each kept.
    public static func == (lhs: AcceptedCode, rhs: AcceptedCode) -> Bool {
        lhs.text == rhs.text && lhs.symbology == rhs.symbology && lhs.capturedAt == rhs.capturedAt
            && lhs.isReappearance == rhs.isReappearance && lhs.latency == rhs.latency && lhs.frameSequence == rhs.frameSequence
    }
}

/// Counters of one scan loop since it was created.
public struct ScanLoopStatistics: Sendable, Equatable, Codable {
    /// Frames the capture thread took from the camera.
    public var framesCaptured = 0
    /// Frames the decoder ran on.
    public var framesDecoded = 0
    /// Frames replaced by a newer one before the decoder got to them (never queued).
    public var framesDroppedStale = 0
    /// Frames the driver dropped (gaps in its sequence numbers), e.g. when capture lagged.
    public var framesDroppedByDriver = 0
    /// The most frames the decoder was ever behind the newest captured frame when it
    /// started on one: 0 or 1 when there is no backlog.
    public var maxFramesBehind = 0
    /// Time spent decoding, in seconds.
    public var decodeSeconds = 0.0
    public var codesAccepted = 0
    /// Times the camera was opened (the first time and after each loss).
    public var opens = 0

    public init() {}
}
