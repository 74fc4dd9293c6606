import AuditClient
import Foundation

/// How the SyncEngine retries: exponential backoff with jitter, and how many failures in a
/// row end one push (the scans stay in the outbox for the next).
public struct SyncPolicy: Sendable {
    public var initialDelay: Duration
    public var maxDelay: Duration
    public var maxAttempts: Int
    /// Scans a push sends in one call when the server takes batches (1: one call a scan).
    public var batchSize: Int
    /// Photos read from the outbox at a time (each at most 200 KB), sent one call each after
    /// the scans and voids, so photos never hold scans back and memory stays bounded.
    public var photoBatch: Int
    /// How long a push waits for another process of this station, sending the same outbox, to
    /// move it on (a scan or void answered) before it says so and stops.
    public var sendPatience: Duration

    public init(
        initialDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(30), maxAttempts: Int = 6,
        batchSize: Int = 500, photoBatch: Int = 16, sendPatience: Duration = .seconds(30)
    ) {
        self.sendPatience = sendPatience
        self.photoBatch = min(max(photoBatch, 1), 64)
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.maxAttempts = maxAttempts
        self.batchSize = min(max(batchSize, 1), 500)
    }

    /// The wait after the `failures`-th failure in a row: initial × 2^(failures-1), capped, ±20%.
    public func delay(afterFailures failures: Int) -> Duration {
        let exponent = Double(min(max(failures - 1, 0), 30))
        let base = min(Double(initialDelay.components.seconds) + Double(initialDelay.components.attoseconds) / 1e18, 1e6)
        let cap = Double(maxDelay.components.seconds) + Double(maxDelay.components.attoseconds) / 1e18
        let seconds = min(base * pow(2, exponent), cap) * Double.random(in: 0.8...1.2)
        return .milliseconds(Int64(seconds * 1000))
    }
}

/// What one push did.
public struct SyncReport: Sendable, Equatable {
    /// Scans the server acknowledged.
    public var pushed = 0
    /// Scans the server refused for good (kept in the outbox, marked rejected).
    public var rejected = 0
    /// Scans still waiting.
    public var remaining = 0
    /// Voids made offline that the server took, refused, or has still to get.
    public var voidsPushed = 0
    public var voidsRejected = 0
    public var voidsRemaining = 0
    /// Photos of scans sent, and still waiting.
    public var photosPushed = 0
    public var photosRemaining = 0
    /// Why the push stopped early, if it did.
    public var stoppedBy: String?
    /// The push stopped because the login is no longer valid.
    public var needsLogin = false

    public init() {}
}
