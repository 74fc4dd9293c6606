import NIOCore

/// The pace of one request's body, counted only while the server asks for more of it: a
/// handler that is busy (a slow database) stops asking, and that time is not the client's.
struct BodyClock {
    private var bytes = 0
    private var waited = TimeAmount.zero
    private var askedAt: NIODeadline?

    mutating func received(_ count: Int) { bytes += count }

    mutating func readAsked(at now: NIODeadline) {
        if askedAt == nil { askedAt = now }
    }

    mutating func readAnswered(at now: NIODeadline) {
        guard let askedAt else { return }
        waited = waited + (now - askedAt)
        self.askedAt = nil
    }

    /// Whether a whole window of waiting brought fewer than `minBytes`; a window that brought
    /// enough starts the next one.
    mutating func isTooSlow(at now: NIODeadline, window: TimeAmount, minBytes: Int) -> Bool {
        let total = waited + (askedAt.map { now - $0 } ?? .zero)
        guard total >= window else { return false }
        if bytes < minBytes { return true }
        bytes = 0
        waited = .zero
        if askedAt != nil { askedAt = now }
        return false
    }
}
