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

    public init(
        maxConnections: Int = 512, maxPerAddress: Int = 64, headerTimeout: TimeAmount = .seconds(10),
        idleTimeout: TimeAmount = .seconds(30), bodyWindow: TimeAmount = .seconds(10), minBodyBytes: Int = 10 * 1024,
        writeTimeout: TimeAmount = .seconds(30), retryAfterSeconds: Int = 2
    ) {
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

/// The connections the server has open, in all and per address.
public final class ConnectionCount: Sendable {
    public init() {}

    private let value = NIOLockedValueBox((total: 0, perAddress: [String: Int]()))

    /// Counts a new connection; whether it is within both caps.
    func open(address: String, limits: ConnectionLimits) -> Bool {
        value.withLockedValue {
            $0.total += 1
            $0.perAddress[address, default: 0] += 1
            return $0.total <= limits.maxConnections && $0.perAddress[address, default: 0] <= limits.maxPerAddress
        }
    }

    func close(address: String) {
        value.withLockedValue {
            $0.total -= 1
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
