import Foundation
import InventoryCore

/// Limits password guessing without slowing anyone else: after 5 wrong passwords in a row for
/// one account, or 20 from one address, that account or address waits 30 s (60 s for an
/// address), doubling with each further lockout up to 15 minutes. A right password clears the
/// account's count. Other calls and other accounts are not affected.
struct LoginThrottle: Sendable {
    private let accounts = AttemptLimiter(failures: 5, firstLock: 30)
    private let addresses = AttemptLimiter(failures: 20, firstLock: 60)

    /// Seconds to wait before `email` may try again from `address`; nil when it may try now.
    func wait(email: String, address: String?, now: Date = Date()) -> Int? {
        [accounts.wait(Self.key(email), now: now), address.flatMap { addresses.wait($0, now: now) }].compactMap { $0 }.max()
    }

    func failed(email: String, address: String?, now: Date = Date()) {
        accounts.failed(Self.key(email), now: now)
        if let address { addresses.failed(address, now: now) }
    }

    func succeeded(email: String) { accounts.succeeded(Self.key(email)) }

    private static func key(_ email: String) -> String { email.trimmingCharacters(in: .whitespaces).lowercased() }
}
