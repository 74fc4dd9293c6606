import Foundation

/// What the proxy does to one request.
public enum Fault: Sendable, Equatable {
    /// Forward the request and the answer.
    case pass
    /// Answer 500 itself; the server never sees the request.
    case error500
    /// Reset the connection (RST) before forwarding; the server never sees the request.
    case reset
    /// Forward the request, let the server store it, then drop the answer and close.
    case dropAnswer
    /// Forward the request and hold the answer this long (longer than the client waits).
    case delay(Double)
    /// Answer 200 with an HTML page itself, as a Wi-Fi network's sign-in page does; the server
    /// never sees the request.
    case signInPage
    /// Forward the request, let the server store it, then send the first half of its answer
    /// (the headers and part of the body) and close.
    case cutAnswer

    /// The answer the proxy gives itself in the server's place, for the faults that have one.
    var ownAnswer: [UInt8]? {
        let (status, type, body): (String, String, String)
        switch self {
        case .error500:
            let json = #"{"success":false,"error":"INTERNAL_ERROR","message":"injected"}"#
            (status, type, body) = ("500 Internal Server Error", "application/json", json)
        case .signInPage:
            (status, type, body) = ("200 OK", "text/html", "<!doctype html><title>Sign in to the Wi-Fi</title><form><input name=room></form>")
        default: return nil
        }
        return Array("HTTP/1.1 \(status)\r\ncontent-type: \(type)\r\ncontent-length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
    }
}

/// A TCP proxy on 127.0.0.1 in front of the test server that applies a planned fault to each
/// request in turn, then passes everything. Blocking sockets, one thread per direction.
public final class FaultProxy: @unchecked Sendable {
    public let port: Int
    private let listener: Int32
    private let upstreamPort: Int
    private let lock = NSLock()
    private var plan: [Fault]
    /// With it, the plan is for the requests whose first line holds this text alone (a call the
    /// client makes among others whose number and order are its own business); others pass.
    private let only: String?
    public private(set) var applied: [Fault] = []

    public init(upstreamPort: Int, plan: [Fault], only: String? = nil) throws {
        self.upstreamPort = upstreamPort
        self.plan = plan
        self.only = only
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func nextFault(for chunk: [UInt8]) -> Fault {
        if let only {
            let line = String(decoding: chunk.prefix(while: { $0 != UInt8(ascii: "\r") }), as: UTF8.self)
            guard line.contains(only) else { return .pass }
        }
        return lock.withLock {
            let fault = plan.isEmpty ? .pass : plan.removeFirst()
            applied.append(fault)
            return fault
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            // A signal (a child process of another test ending) interrupts a call: try it again.
            if client < 0 && (errno == EINTR || errno == ECONNABORTED) { continue }
            if client < 0 { return }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: upstreamPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if connected != 0 && !(errno == EINTR && Self.finishConnecting(upstream)) {
                close(client)
                close(upstream)
                continue
            }
            let state = Connection(client: client, upstream: upstream)
            Thread { [self] in forwardRequests(state) }.start()
            Thread { [self] in forwardAnswers(state) }.start()
        }
    }

    final class Connection: @unchecked Sendable {
        let client: Int32
        let upstream: Int32
        let lock = NSLock()
        var fault: Fault = .pass
        private var threadsDone = 0
        init(client: Int32, upstream: Int32) {
            self.client = client
            self.upstream = upstream
        }

        /// Each of the two threads calls this when it ends; the second closes both sockets. A
        /// thread must never close a socket the other may still write to: the number would be
        /// handed to the next socket this process opens, and the write would land there (a
        /// server's answer once went to the browser tests' chromedriver that way).
        func threadEnded() {
            let last = lock.withLock {
                threadsDone += 1
                return threadsDone == 2
            }
            guard last else { return }
            close(client)
            close(upstream)
        }

        func closeBoth(reset: Bool = false) {
            if reset {
                var linger = Foundation.linger(l_onoff: 1, l_linger: 0)
                setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Foundation.linger>.size))
            }
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(upstream, Int32(SHUT_RDWR))
        }
    }

    private static let methods = ["GET ", "POST ", "PUT ", "DELETE ", "PATCH ", "HEAD "].map { Array($0.utf8) }

    private func forwardRequests(_ connection: Connection) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        defer {
            connection.closeBoth()
            connection.threadEnded()
        }
        while true {
            let count = read(connection.client, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            let chunk = Array(buffer[0..<count])
            if Self.methods.contains(where: { chunk.starts(with: $0) }) {
                let fault = nextFault(for: chunk)
                connection.lock.withLock { connection.fault = fault }
                if fault == .reset {
                    connection.closeBoth(reset: true)
                    return
                }
                if let answer = fault.ownAnswer {
                    Self.writeAll(connection.client, answer)
                    continue
                }
            } else if connection.lock.withLock({ connection.fault.ownAnswer != nil }) {
                // The rest of a request the proxy answered itself never reaches the server.
                continue
            }
            if !Self.writeAll(connection.upstream, chunk) { return }
        }
    }

    private func forwardAnswers(_ connection: Connection) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        defer {
            connection.closeBoth()
            connection.threadEnded()
        }
        while true {
            let count = read(connection.upstream, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            let fault = connection.lock.withLock { () -> Fault in
                let fault = connection.fault
                connection.fault = .pass
                return fault
            }
            switch fault {
            case .dropAnswer:
                connection.closeBoth()
                return
            case .cutAnswer:
                Self.writeAll(connection.client, Array(buffer[0..<(count / 2)]))
                connection.closeBoth()
                return
            case .delay(let seconds): Thread.sleep(forTimeInterval: seconds)
            default: break
            }
            if !Self.writeAll(connection.client, Array(buffer[0..<count])) { return }
        }
    }

    /// A connect that a signal interrupted goes on in the background: waits (5 s at most) for it
    /// to end, and whether it succeeded.
    static func finishConnecting(_ fd: Int32) -> Bool {
        var waiting = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        var ready: Int32 = -1
        repeat { ready = poll(&waiting, 1, 5000) } while ready < 0 && errno == EINTR
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return ready == 1 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0 && failure == 0
    }

    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}
