import NIOConcurrencyHelpers
import NIOCore

/// Limits on each connection, so slow or abusive clients cannot hold the server.
public struct ConnectionLimits: Sendable {
    /// Connections open at once; one more is answered 503 with `Retry-After` and closed.
    public var maxConnections: Int
    /// Connections open at once from one address; one more is refused the same way.
    public var maxPerAddress: Int
    /// A request's headers must be complete this long after the connection opens, else 408; a
    /// kept-alive connection with no new request for this long is closed.
    public var headerTimeout: TimeAmount
    /// No byte at all for this long closes the connection (Hummingbird's idle timeout).
    public var idleTimeout: TimeAmount
    /// While the server waits for a body, each window this long must bring `minBodyBytes` (or
    /// the body's end), else 408 and the connection closes: a body cannot trickle in forever.
    public var bodyWindow: TimeAmount
    public var minBodyBytes: Int
    /// An answer the client does not take for this long (the connection stays full) closes it.
    public var writeTimeout: TimeAmount
    /// What a refused client is told to wait.
    public var retryAfterSeconds: Int
    /// Slots of `maxConnections` that only the machine itself may take (127.0.0.1 and ::1, where
    /// the kiosk's own screen connects from): other addresses together hold at most
    /// `maxConnections - loopbackSlots`, so however many idle sockets they open, the machine's
    /// own screen is still served. At most a quarter of `maxConnections` (`reservedForLoopback`).
    public var loopbackSlots: Int

    public init(
        maxConnections: Int = 512, maxPerAddress: Int = 64, headerTimeout: TimeAmount = .seconds(10),
        idleTimeout: TimeAmount = .seconds(30), bodyWindow: TimeAmount = .seconds(10), minBodyBytes: Int = 10 * 1024,
        writeTimeout: TimeAmount = .seconds(30), retryAfterSeconds: Int = 2, loopbackSlots: Int = 16
    ) {
        self.loopbackSlots = loopbackSlots
        self.maxConnections = maxConnections
        self.maxPerAddress = maxPerAddress
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.bodyWindow = bodyWindow
        self.minBodyBytes = minBodyBytes
        self.writeTimeout = writeTimeout
        self.retryAfterSeconds = retryAfterSeconds
    }
}

extension ConnectionLimits {
    /// The slots kept for the machine itself: `loopbackSlots`, at most a quarter of
    /// `maxConnections`, so a small cap still leaves other addresses most of it.
    public var reservedForLoopback: Int { max(0, min(loopbackSlots, maxConnections / 4)) }

    /// Whether `address` is the machine's own (127.0.0.1 or ::1, also as an IPv4-mapped IPv6
    /// address). Other 127.x.y.z addresses are loopback too, but nothing connects from them
    /// unless a local program binds them on purpose; they count as other addresses.
    public static func isOwnMachine(_ address: String) -> Bool {
        address == "127.0.0.1" || address == "::1" || address == "::ffff:127.0.0.1"
    }
}

/// The connections the server has open, in all, per address, and from addresses other than
/// the machine's own.
public final class ConnectionCount: Sendable {
    public init() {}

    private let value = NIOLockedValueBox((total: 0, others: 0, perAddress: [String: Int]()))

    /// Counts a new connection if it is within the caps (the address's own, and the total, of
    /// which addresses other than the machine's own may hold all but the slots kept for it);
    /// whether it is. A refused connection is not counted (`close` is for counted ones only):
    /// while it waits for its 503 it holds no slot, so idle refused sockets cannot crowd out
    /// the machine's own screen either.
    public func open(address: String, limits: ConnectionLimits) -> Bool {
        value.withLockedValue {
            let own = ConnectionLimits.isOwnMachine(address)
            guard $0.total < limits.maxConnections, $0.perAddress[address, default: 0] < limits.maxPerAddress,
                own || $0.others < limits.maxConnections - limits.reservedForLoopback
            else { return false }
            $0.total += 1
            $0.perAddress[address, default: 0] += 1
            if !own { $0.others += 1 }
            return true
        }
    }

    /// The connections counted now: in all, and from addresses other than the machine's own.
    public var counts: (total: Int, others: Int) { value.withLockedValue { ($0.total, $0.others) } }

    public func close(address: String) {
        value.withLockedValue {
            $0.total -= 1
            if !ConnectionLimits.isOwnMachine(address) { $0.others -= 1 }
            let left = $0.perAddress[address, default: 1] - 1
            $0.perAddress[address] = left > 0 ? left : nil
        }
    }
}

/// Why the guard answers a request itself, and closes the connection. It is also the error a
/// handler reading a body that trickled in too slowly gets.
public enum Refusal: Error, Sendable, Equatable {
    /// Beyond a connection cap.
    case busy(retryAfter: Int)
    /// Headers late, or a body too slow.
    case timeout(seconds: Int)
    /// Not HTTP/1.1 the parser can read, or a body that broke off.
    case malformed(String)

    public var status: Int {
        switch self {
        case .busy: 503
        case .timeout: 408
        case .malformed: 400
        }
    }

    public var retryAfter: Int? {
        if case .busy(let seconds) = self { seconds } else { nil }
    }
}

/// The body and type of a refusal, in the server's own error format.
public struct RefusalAnswer: Sendable {
    public var contentType: String
    public var body: [UInt8]

    public init(contentType: String = "application/json; charset=utf-8", body: [UInt8]) {
        self.contentType = contentType
        self.body = body
    }
}
