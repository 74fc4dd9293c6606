import Foundation
import Synchronization

/// How many frames each user may send to `POST /api/v1/decode`: a steady rate, and a burst
/// on top of it. The phone page sends about 5 a second, one at a time; the default leaves room
/// for two pages of one user and for retries, and stops a client that sends as fast as it can.
public struct DecodeRate: Sendable, Equatable {
    public var framesPerSecond: Double
    public var burst: Int

    public init(framesPerSecond: Double = 12, burst: Int = 24) {
        self.framesPerSecond = framesPerSecond
        self.burst = burst
    }
}

/// A token bucket per user: each frame takes one token, tokens come back at the rate, and a
/// user with none left is told how long to wait. Users idle long enough to be full again are
/// forgotten when the table grows, so it stays small.
final class FrameRate: Sendable {
    private struct Bucket {
        var tokens: Double
        var at: Date
    }
    private let rate: DecodeRate
    private let buckets = Mutex<[Int64: Bucket]>([:])
    private static let maxEntries = 10_000

    init(_ rate: DecodeRate) { self.rate = rate }

    /// nil when `user` may send this frame now (and the frame is counted), else whole seconds to wait.
    func admit(_ user: Int64, now: Date = Date()) -> Int? {
        let capacity = Double(max(1, rate.burst))
        let perSecond = max(0.001, rate.framesPerSecond)
        return buckets.withLock { buckets in
            if buckets.count >= Self.maxEntries {
                buckets = buckets.filter { now.timeIntervalSince($0.value.at) * perSecond + $0.value.tokens < capacity }
            }
            var bucket = buckets[user] ?? Bucket(tokens: capacity, at: now)
            bucket.tokens = min(capacity, bucket.tokens + max(0, now.timeIntervalSince(bucket.at)) * perSecond)
            bucket.at = now
            defer { buckets[user] = bucket }
            guard bucket.tokens >= 1 else { return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up))) }
            bucket.tokens -= 1
            return nil
        }
    }
}
