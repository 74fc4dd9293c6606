import Foundation
@testable import Scanning

/// A frame source that stands in for a camera in-process: frame `i` is a 1×1 image whose
/// pixel is `i % 256` (the decoder stand-in reads it back), produced as fast as the capture
/// thread asks. Faults can be scripted per open.
final class ScriptedFrameSource: FrameSource, @unchecked Sendable {
    private let lock = NSLock()
    private let frameCount: Int
    /// What each call to `open()` does: nil opens, an error is thrown.
    private var opens: [CameraError?]
    /// After this many frames in the first stream, the camera is disconnected.
    private let disconnectAfter: Int?
    /// Each stream gives at most this many frames, then waits for the loop to stop.
    private let framesPerOpen: Int
    private var produced = 0
    private var streamFrames = 0
    private var isOpen = false
    private(set) var closes = 0

    init(frames: Int, opens: [CameraError?] = [], disconnectAfter: Int? = nil, framesPerOpen: Int = .max) {
        self.frameCount = frames
        self.framesPerOpen = framesPerOpen
        self.opens = opens
        self.disconnectAfter = disconnectAfter
    }

    func open() throws(CameraError) -> CameraStream {
        let outcome: CameraError? = lock.withLock { opens.isEmpty ? nil : opens.removeFirst() }
        if let outcome { throw outcome }
        lock.withLock {
            isOpen = true
            streamFrames = 0
        }
        return CameraStream(
            device: "/dev/scripted", card: "Scripted", cameraFormat: "GREY", width: 1, height: 1,
            fps: nil, notes: [])
    }

    func nextFrame(waker: CameraWaker) throws(CameraError) -> CapturedFrame? {
        lock.lock()
        if let disconnectAfter, produced == disconnectAfter, streamFrames == disconnectAfter {
            lock.unlock()
            throw .disconnected(device: "/dev/scripted")
        }
        var index: Int?
        if produced < frameCount && streamFrames < framesPerOpen {
            produced += 1
            streamFrames += 1
            index = produced - 1
        }
        lock.unlock()
        guard let index else {
            _ = waker.sleep(seconds: 3600) // no more frames: wait for the loop to stop
            return nil
        }
        return CapturedFrame(
            image: GrayImage(width: 1, height: 1, pixels: [UInt8(index % 256)]),
            sequence: UInt32(index), captureTime: MonotonicClock.now)
    }

    func close() {
        lock.withLock {
            if isOpen { closes += 1 }
            isOpen = false
        }
    }

    var closeCount: Int { lock.withLock { closes } }
}

/// Records what the decode stand-in saw, across threads.
final class DecodeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var indices: [Int] = []
    func append(_ index: Int) { lock.withLock { indices.append(index) } }
    var all: [Int] { lock.withLock { indices } }
}

/// Collects what the loop reported, across tasks.
final class LoopRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var codes: [AcceptedCode] = []
    private var events: [CameraEvent] = []
    func add(_ code: AcceptedCode) { lock.withLock { codes.append(code) } }
    func add(_ event: CameraEvent) { lock.withLock { events.append(event) } }
    var acceptedCodes: [AcceptedCode] { lock.withLock { codes } }
    var cameraEvents: [CameraEvent] { lock.withLock { events } }
}
