import Crypto
import Foundation
import InventoryCore
import NIOConcurrencyHelpers

/// The PIN rule: a kiosk that listens on an address other than loopback asks every browser
/// that is not on this machine for the station's PIN, because the page can start and end
/// audits. A right PIN gives the browser a session cookie (12 hours). Wrong PINs are limited
/// per address: after 5 in a row the address waits 30 s, doubling up to 15 minutes. They are
/// also limited for everyone together: after 20 wrong PINs from any addresses, the PIN call
/// waits 60 s for every address, doubling up to 15 minutes, so many addresses guess no faster
/// than a few. The kiosk's own screen (loopback) needs no PIN and goes on scanning meanwhile.
final class PinGate: Sendable {
    static let cookieName = "kiosk_session"
    static let sessionSeconds: Double = 12 * 3600
    let pin: String?
    private let sessions = NIOLockedValueBox<[String: Date]>([:])
    private let guesses = AttemptLimiter(failures: 5, firstLock: 30)
    private let allGuesses = AttemptLimiter(failures: 20, firstLock: 60)
    private static let everyone = "every address"

    /// `pin` nil: no PIN is asked (the kiosk listens on loopback only).
    init(pin: String?) { self.pin = pin }

    /// Whether a request from `peer` with `cookieHeader` may use the kiosk.
    func admits(peer: String?, cookieHeader: String?) -> Bool {
        guard pin != nil else { return true }
        if let peer, Self.isLoopback(peer) { return true }
        guard let token = Self.cookie(Self.cookieName, in: cookieHeader) else { return false }
        return sessions.withLockedValue { current in
            guard let expiry = current[token] else { return false }
            if expiry < Date() {
                current[token] = nil
                return false
            }
            return true
        }
    }

    /// Checks a PIN from `peer`; a session token when it is right.
    func check(_ candidate: String, peer: String) throws(KioskError) -> String {
        guard let pin else { throw KioskError(status: .notFound, code: .noPin, message: "This kiosk has no PIN: it listens on this machine only") }
        if let seconds = guesses.wait(peer) {
            throw KioskError(
                status: .tooManyRequests, code: .tooManyAttempts,
                message: "Too many wrong PINs from this address; try again in \(seconds) s",
                headers: [.retryAfter: String(seconds)])
        }
        if let seconds = allGuesses.wait(Self.everyone) {
            throw KioskError(
                status: .tooManyRequests, code: .tooManyAttempts,
                message: "Too many wrong PINs on this kiosk; try again in \(seconds) s",
                headers: [.retryAfter: String(seconds)])
        }
        // Compared as digests, so the time taken says nothing about the PIN.
        guard Data(SHA256.hash(data: Data(candidate.utf8))) == Data(SHA256.hash(data: Data(pin.utf8))) else {
            guesses.failed(peer)
            allGuesses.failed(Self.everyone)
            throw KioskError(status: .unauthorized, code: .wrongPin, message: "That PIN is not this station's PIN")
        }
        guesses.succeeded(peer)
        var generator = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        let now = Date()
        sessions.withLockedValue { current in
            current = current.filter { $0.value > now }
            current[token] = now.addingTimeInterval(Self.sessionSeconds)
        }
        return token
    }

    static func setCookie(_ token: String) -> String {
        "\(cookieName)=\(token); Path=/; Max-Age=\(Int(sessionSeconds)); HttpOnly; SameSite=Strict"
    }

    /// A PIN the station may be configured with: 4 to 64 characters, no spaces or control characters.
    static func validate(_ pin: String) throws(KioskError) -> String {
        guard (4...64).contains(pin.count),
            !pin.unicodeScalars.contains(where: {
                CharacterSet.whitespacesAndNewlines.contains($0) || CharacterSet.controlCharacters.contains($0)
            })
        else {
            throw KioskError.invalid("the kiosk PIN must be 4 to 64 characters with no spaces")
        }
        return pin
    }

    /// 127.0.0.0/8, ::1, an IPv4-mapped loopback, or the name localhost.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare == "localhost" || bare == "::1" { return true }
        let v4 = bare.hasPrefix("::ffff:") ? String(bare.dropFirst(7)) : bare
        let parts = v4.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    static func cookie(_ name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == name {
                return pair[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}
