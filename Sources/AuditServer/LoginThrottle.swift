import Foundation
import InventoryCore

/// Limits password guessing without letting a stranger lock someone out:
/// - 5 wrong passwords in a row for one account from one address lock that pair for 30 s;
/// - 50 from one address, whatever the accounts, lock the address for 60 s;
/// - 100 for one account, whatever the addresses, lock the account for 60 s (the backstop
///   against guessing from many addresses);
///
/// each doubling with every further lockout up to 15 minutes. Every attempt is counted as a
/// failure before its password is checked (`reserve`), so guesses sent at once are limited
/// like guesses sent one by one; a right password takes its own attempt back and clears the
/// pair. Other calls are not affected.
final class LoginThrottle: Sendable {
    /// Held while an attempt is checked against the limits and counted, so none races another.
    private let reserving = NSLock()
    private let pairs = AttemptLimiter(failures: 5, firstLock: 30)
    private let addresses = AttemptLimiter(failures: 50, firstLock: 60)
    private let accounts = AttemptLimiter(failures: 100, firstLock: 60)

    /// Seconds to wait before `email` may try again from `address`; nil when it may try now.
    func wait(email: String, address: String?, now: Date = Date()) -> Int? {
        let account = Self.key(email)
        let waits = [
            pairs.wait("\(address ?? "-") \(account)", now: now), address.flatMap { addresses.wait($0, now: now) }, accounts.wait(account, now: now)
        ]
        return waits.compactMap { $0 }.max()
    }

    /// Seconds to wait before `email` may try again from `address`, or nil after reserving
    /// this attempt, counted as failed until `succeeded` or `unchecked` takes it back.
    func reserve(email: String, address: String?, now: Date = Date()) -> Int? {
        let account = Self.key(email)
        return reserving.withLock {
            if let wait = wait(email: email, address: address, now: now) { return wait }
            pairs.failed("\(address ?? "-") \(account)", now: now)
            if let address { addresses.failed(address, now: now) }
            accounts.failed(account, now: now)
            return nil
        }
    }

    /// The password was right: the pair starts again, and the attempt no longer counts.
    func succeeded(email: String, address: String?) {
        let account = Self.key(email)
        pairs.succeeded("\(address ?? "-") \(account)")
        if let address { addresses.forgive(address) }
        accounts.forgive(account)
    }

    /// The password could not be checked (the database failed): the attempt does not count.
    func unchecked(email: String, address: String?) {
        let account = Self.key(email)
        pairs.forgive("\(address ?? "-") \(account)")
        if let address { addresses.forgive(address) }
        accounts.forgive(account)
    }

    private static func key(_ email: String) -> String { email.trimmingCharacters(in: .whitespaces).lowercased() }
}
