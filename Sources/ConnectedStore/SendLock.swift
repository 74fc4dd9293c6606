import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One process at a time sends a station's outbox. A kiosk and an `audit sync` typed beside it
/// (or two kiosks started on one database) would otherwise both read the same waiting scans and
/// both send them: our server takes a repeated `scan_id` as the same scan, but a server of the
/// seeds' API knows no `scan_id` and would store the scan twice. The lock is `flock` on a file
/// beside the database, so it ends with its process, whatever way that ends (kill -9 included).
public struct SendLock: Sendable {
    /// The lock file; nil for a database with no file (in memory).
    public let path: String?

    public init(databasePath: String) {
        path = databasePath.isEmpty || databasePath == ":memory:" ? nil : databasePath + ".send-lock"
    }

    /// The lock held: released by `release()`, or when the process ends.
    public struct Turn: Sendable {
        let descriptor: Int32?

        public func release() {
            guard let descriptor else { return }
            close(descriptor) // closing the only descriptor of the file drops its flock
        }
    }

    /// Takes the lock, waiting while another process holds it, for up to `patience` (asking
    /// again every `interval`, asleep in between: no thread is held). Nil when it is still held
    /// then. A lock file that cannot be made (a read-only folder) does not stop the sending: the
    /// turn is given without a lock.
    public func acquire(patience: Duration, interval: Duration = .milliseconds(50)) async -> Turn? {
        guard let path else { return Turn(descriptor: nil) }
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return Turn(descriptor: nil) }
        let deadline = ContinuousClock.now + patience
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return Turn(descriptor: descriptor) }
            let busy = errno == EWOULDBLOCK || errno == EINTR
            if !busy {
                // A file system without flock: send without it, as before there was a lock.
                close(descriptor)
                return Turn(descriptor: nil)
            }
            if ContinuousClock.now >= deadline || Task.isCancelled {
                close(descriptor)
                return nil
            }
            try? await Task.sleep(for: interval)
        }
    }
}
