import Foundation

/// The hand-off between the capture thread and the decode thread: one slot holding the
/// newest frame. A frame put while the previous one is still waiting replaces it (the
/// old one is counted as dropped), so the decoder never works through a queue.
final class ScanLoopFrameSlot: @unchecked Sendable {
    private let condition = NSCondition()
    private var frame: CapturedFrame?
    private var closed = false
    private var statistics = ScanLoopStatistics()
    /// Frames captured so far; the decoder compares it with a frame's index to see how far behind it is.
    private var captured = 0
    private var pendingIndex = 0
    private var lastSequence: UInt32?

    /// Offers the newest frame to the decoder.
    func put(_ newFrame: CapturedFrame) {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return }
        captured += 1
        statistics.framesCaptured += 1
        if let last = lastSequence, newFrame.sequence > last &+ 1, newFrame.sequence > last {
            statistics.framesDroppedByDriver += Int(newFrame.sequence - last - 1)
        }
        lastSequence = newFrame.sequence
        if frame != nil { statistics.framesDroppedStale += 1 }
        frame = newFrame
        pendingIndex = captured
        condition.signal()
    }

    /// Waits for a frame and takes it; nil once the slot is closed.
    func take() -> CapturedFrame? {
        condition.lock()
        defer { condition.unlock() }
        while frame == nil && !closed { condition.wait() }
        guard !closed, let taken = frame else { return nil }
        frame = nil
        statistics.maxFramesBehind = max(statistics.maxFramesBehind, captured - pendingIndex)
        return taken
    }

    /// A new stream started: its sequence numbers start again.
    func streamRestarted() {
        condition.lock()
        defer { condition.unlock() }
        lastSequence = nil
        statistics.opens += 1
    }

    func recordDecode(seconds: Double, accepted: Int) {
        condition.lock()
        defer { condition.unlock() }
        statistics.framesDecoded += 1
        statistics.decodeSeconds += seconds
        statistics.codesAccepted += accepted
    }

    /// Accepts frames again after `close()` (a new run of the same loop).
    func reopen() {
        condition.lock()
        defer { condition.unlock() }
        closed = false
    }

    /// Wakes the decoder and refuses further frames.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        frame = nil
        condition.broadcast()
    }

    var snapshot: ScanLoopStatistics {
        condition.lock()
        defer { condition.unlock() }
        return statistics
    }
}
