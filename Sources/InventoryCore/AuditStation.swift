import Foundation

/// A station heard from on an audit: one that sent it scans or reported on it
/// (`StationReport`), when it was first and last heard from, and how many of its scans it
/// said were still waiting to be sent. The server keeps one per audit and station name, so an
/// audit's end can say who may still hold scans of it. The stores read it from their rows by
/// its fields' names.
public struct AuditStation: Codable, Sendable, Equatable {
    /// The station's name, as it logged in (`--device-name`, or its configured name).
    public var station: String
    /// Who was logged in on it when it last reported.
    public var user: String
    public var joinedAt: Date
    public var lastSeenAt: Date
    /// Scans it said were waiting in its outbox when it last reported; nil when it did not say.
    public var waiting: Int?

    /// A kiosk reports every few seconds while it runs; a station silent for longer than this
    /// may be offline with scans it could not send.
    public static let silence: TimeInterval = 120

    /// The station may still hold scans of the audit: it said some were waiting, or it has gone
    /// silent.
    public func isOut(now: Date = Date()) -> Bool {
        (waiting ?? 0) > 0 || now.timeIntervalSince(lastSeenAt) > Self.silence
    }

    /// "dock-b joined this audit and last synced 4 min ago with 5 scans waiting".
    public func sentence(now: Date = Date()) -> String {
        let waitingText =
            switch waiting {
            case nil: ""
            case 0?: " with no scans waiting"
            case 1?: " with 1 scan waiting"
            case let count?: " with \(count) scans waiting"
            }
        return "\(station) joined this audit and last synced \(Self.ago(now.timeIntervalSince(lastSeenAt)))\(waitingText)"
    }

    /// "just now", "40 s ago", "4 min ago", "3 h ago".
    static func ago(_ seconds: TimeInterval) -> String {
        let whole = max(0, Int(seconds.rounded()))
        switch whole {
        case 0..<5: return "just now"
        case 5..<60: return "\(whole) s ago"
        case 60..<3600: return "\(whole / 60) min ago"
        default: return "\(whole / 3600) h ago"
        }
    }
}

/// What a station tells the server of itself with each batch of scans and each poll of an
/// audit: its name and how many scans wait in its outbox.
public struct StationReport: Sendable, Equatable {
    public var auditID: AuditID
    public var station: String
    public var user: String
    public var waiting: Int?
    public var at: Date

    public init(auditID: AuditID, station: String, user: String, waiting: Int?, at: Date = Date()) {
        self.auditID = auditID
        self.station = station
        self.user = user
        self.waiting = waiting
        self.at = at
    }
}
