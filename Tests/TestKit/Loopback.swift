import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Servers that are down, hang or cannot be reached, all on 127.0.0.1: tests and benchmarks
/// send traffic to loopback only, never to another address.
public enum Loopback {
    /// A TCP port on 127.0.0.1 that nothing listens on now (bound to port 0, read back,
    /// closed): a connection to it is refused, and a server may bind it next.
    public static func freePort() throws -> Int {
        let (fd, port) = try bound()
        close(fd)
        return port
    }

    /// The address of a stopped server: a port on 127.0.0.1 that this process keeps bound, with
    /// no listener, for the whole run. A connection to it is refused at once, and no server that
    /// another test starts can take the port, as one could take a port `freePort()` named (its
    /// socket is closed): a station meant to be offline once reached a kiosk that way.
    public static func refusedURL() throws -> String {
        guard let port = refusedPort else { throw POSIXError(.EADDRINUSE) }
        return "http://127.0.0.1:\(port)"
    }

    /// Bound once, and never closed.
    private static let refusedPort: Int? = (try? bound()).map { $0.1 }

    /// A free port below the kernel's ephemeral range (32768 and up), for a listener that lives
    /// the whole run (the browser tests' chromedriver), or a server a test stops and starts again
    /// on the same port: `freePort()` and every client socket take their ports from that range,
    /// so a port another test was given as free, or as a dead server's, and then uses, can never
    /// be this one (a server killed mid-sync once came back to find its port taken).
    public static func longLivedPort() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<32_000)
            if let fd = try? bound(port: port) {
                close(fd)
                return port
            }
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// A socket bound to 127.0.0.1 on a port the kernel picks.
    static func bound() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let done = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard done else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A socket bound to 127.0.0.1:`port`.
    static func bound(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let done = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard done else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        return fd
    }

    /// Starts a non-blocking connection to `port` on 127.0.0.1; the socket.
    static func connecting(to port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return fd
    }
}

/// A listening socket on 127.0.0.1 that never accepts: connections complete and requests are
/// taken, but no answer ever comes (a hung server).
public final class BlackHole: @unchecked Sendable {
    public let port: Int
    private let fd: Int32

    public init() throws {
        (fd, port) = try Loopback.bound()
        guard listen(fd, 64) == 0 else {
            Glibc.close(fd)
            throw POSIXError(.EADDRINUSE)
        }
    }

    public func close() { Glibc.close(fd) }
}

/// A server that cannot be reached: a listener on 127.0.0.1 whose queue of connections is
/// full and that never accepts, so the kernel drops every new connection's SYN and a client's
/// connect hangs until its own deadline, as with a host that is down or a link that drops
/// packets. It stands for an unroutable address without sending anything off this machine.
public final class DeadEnd: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private var fillers: [Int32] = []

    public init() throws {
        (listener, port) = try Loopback.bound()
        guard listen(listener, 0) == 0 else {
            Glibc.close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        // A backlog of 0 queues one connection; two more make sure the queue is full.
        for _ in 0..<3 { fillers.append(Loopback.connecting(to: port)) }
    }

    /// Whether a new connection now hangs (it has not completed after `wait`).
    public func swallows(wait: Duration = .milliseconds(200)) async throws -> Bool {
        let probe = Loopback.connecting(to: port)
        defer { Glibc.close(probe) }
        try await Task.sleep(for: wait)
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(probe, SOL_SOCKET, SO_ERROR, &error, &length)
        var peer = sockaddr_in()
        var peerLength = socklen_t(MemoryLayout<sockaddr_in>.size)
        let connected = withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(probe, $0, &peerLength) == 0 }
        }
        return !connected && error == 0
    }

    public func close() {
        for fd in fillers { Glibc.close(fd) }
        fillers = []
        Glibc.close(listener)
    }
}
