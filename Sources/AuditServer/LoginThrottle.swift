import Foundation

/// Limits password guessing without slowing anyone else: after 5 wrong passwords in a row for
/// one account, or 20 from one address, that account or address waits 30 s (60 s for an
/// address), doubling with each further lockout up to 15 minutes. A right password clears the
/// account's count. Other calls and other accounts are not affected.
final class LoginThrottle: @unchecked Sendable {
    struct Limit: Sendable {
        var failures: Int
        var firstLock: Double
    }
    private struct Entry { var failures = 0; var lockedUntil = Date.distantPast; var nextLock: Double }
    static let account = Limit(failures: 5, firstLock: 30)
    static let address = Limit(failures: 20, firstLock: 60)
    static let maxLock: Double = 900
    /// Entries kept at most; the oldest half goes when it is reached, so guessing with random
    /// emails cannot fill the memory.
    static let maxEntries = 100_000
    private let lock = NSLock()
    private var accounts: [String: Entry] = [:]
    private var addresses: [String: Entry] = [:]

    /// Seconds to wait before `email` may try again from `address`; nil when it may try now.
    func wait(email: String, address: String?, now: Date = Date()) -> Int? {
        lock.withLock {
            let times = [accounts[Self.key(email)]?.lockedUntil, address.flatMap { addresses[$0]?.lockedUntil }].compactMap { $0 }
            guard let until = times.max(), until > now else { return nil }
            return Int(until.timeIntervalSince(now).rounded(.up))
        }
    }

    func failed(email: String, address: String?, now: Date = Date()) {
        lock.withLock {
            Self.count(&accounts, Self.key(email), Self.account, now)
            if let address { Self.count(&addresses, address, Self.address, now) }
        }
    }

    func succeeded(email: String) {
        lock.withLock { accounts[Self.key(email)] = nil }
    }

    private static func count(_ table: inout [String: Entry], _ key: String, _ limit: Limit, _ now: Date) {
        if table.count >= maxEntries {
            for stale in table.keys.prefix(maxEntries / 2) { table[stale] = nil }
        }
        var entry = table[key] ?? Entry(nextLock: limit.firstLock)
        entry.failures += 1
        if entry.failures >= limit.failures {
            entry.lockedUntil = now.addingTimeInterval(entry.nextLock)
            entry.nextLock = min(entry.nextLock * 2, maxLock)
            entry.failures = 0
        }
        table[key] = entry
    }

    private static func key(_ email: String) -> String { email.trimmingCharacters(in: .whitespaces).lowercased() }
}
