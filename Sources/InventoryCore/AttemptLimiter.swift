import Foundation

/// Limits guessing (passwords, PINs) per key without slowing anyone else: after `failures`
/// wrong tries in a row a key waits `firstLock` seconds, doubling with each further lockout up
/// to `maxLock`. A success clears the key; `forgive` takes back one failure that was counted
/// ahead of a slow check (bcrypt) that then went right. At most `maxEntries` keys are kept; the oldest half
/// goes when that is reached, so guessing with random keys cannot fill the memory.
public final class AttemptLimiter: @unchecked Sendable {
    public let failures: Int
    public let firstLock: Double
    public let maxLock: Double
    public let maxEntries: Int
    private struct Entry {
        var failures = 0
        var lockedUntil = Date.distantPast
        var nextLock: Double
    }
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    public init(failures: Int, firstLock: Double, maxLock: Double = 900, maxEntries: Int = 100_000) {
        self.failures = failures
        self.firstLock = firstLock
        self.maxLock = maxLock
        self.maxEntries = maxEntries
    }

    /// Whole seconds `key` must still wait, or nil when it may try now.
    public func wait(_ key: String, now: Date = Date()) -> Int? {
        lock.withLock {
            guard let until = entries[key]?.lockedUntil, until > now else { return nil }
            return Int(until.timeIntervalSince(now).rounded(.up))
        }
    }

    /// Takes back one failure that was counted but not locked on (a reserved attempt that was
    /// right, or could not be checked); a lockout already begun stays.
    public func forgive(_ key: String) {
        lock.withLock {
            guard var entry = entries[key], entry.failures > 0 else { return }
            entry.failures -= 1
            entries[key] = entry
        }
    }

    public func failed(_ key: String, now: Date = Date()) {
        lock.withLock { countFailure(key, now: now) }
    }

    /// Counts one failure; the lock is held.
    private func countFailure(_ key: String, now: Date) {
        if entries.count >= maxEntries {
            for stale in entries.keys.prefix(maxEntries / 2) { entries[stale] = nil }
        }
        var entry = entries[key] ?? Entry(nextLock: firstLock)
        entry.failures += 1
        if entry.failures >= failures {
            entry.lockedUntil = now.addingTimeInterval(entry.nextLock)
            entry.nextLock = min(entry.nextLock * 2, maxLock)
            entry.failures = 0
        }
        entries[key] = entry
    }

    public func succeeded(_ key: String) {
        lock.withLock { entries[key] = nil }
    }
}
