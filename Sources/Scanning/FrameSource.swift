/// One frame as captured, with the sequence number and time the source gave it.
struct CapturedFrame: Sendable {
    var image: GrayImage
    /// The driver's frame counter; a gap means the driver dropped frames.
    var sequence: UInt32
    /// When the frame was captured, in seconds on CLOCK_MONOTONIC (`MonotonicClock.now`).
    var captureTime: Double
}

/// Where the scan loop gets frames: a V4L2 camera, or a stand-in in tests. Used by one
/// capture thread at a time.
protocol FrameSource: AnyObject {
    /// Opens (or reopens) the source and starts streaming.
    func open() throws(CameraError) -> CameraStream
    /// The next frame. Waits up to the configured select timeout, and returns nil as soon
    /// as `waker` is stopped.
    func nextFrame(waker: CameraWaker) throws(CameraError) -> CapturedFrame?
    /// Stops streaming and releases the device; `open()` may follow.
    func close()
}
