import CV4L2
import Foundation

/// Wakes the capture thread out of `select` when the scan loop stops, through a pipe
/// whose read end the thread polls beside the camera. Owns both pipe ends.
final class CameraWaker: @unchecked Sendable {
    /// The read end; readable once `stop()` was called.
    let fileDescriptor: Int32
    private let writeEnd: Int32
    private let lock = NSLock()
    private var stopped = false

    init() throws(CameraError) {
        var readEnd: Int32 = -1
        var writeEnd: Int32 = -1
        guard cv4l2_make_wake_pipe(&readEnd, &writeEnd) == 0 else {
            throw .systemCall(device: "-", operation: "pipe2", errno: errno)
        }
        fileDescriptor = readEnd
        self.writeEnd = writeEnd
    }

    deinit {
        Glibc.close(fileDescriptor)
        Glibc.close(writeEnd)
    }

    var isStopped: Bool { lock.withLock { stopped } }

    func stop() {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        if first {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
    }

    /// Sleeps up to `seconds`; returns true when woken by `stop()`.
    func sleep(seconds: Double) -> Bool {
        var pfd = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let deadline = MonotonicClock.now + seconds
        while !isStopped {
            let left = deadline - MonotonicClock.now
            if left <= 0 { return false }
            _ = poll(&pfd, 1, Int32((left * 1000).rounded(.up)))
        }
        return true
    }
}

/// Seconds on CLOCK_MONOTONIC, the clock V4L2 drivers stamp frames with.
enum MonotonicClock {
    static var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
