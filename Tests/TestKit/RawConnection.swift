import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A plain TCP connection to the test server, for what an HTTP client library would not send:
/// partial headers, malformed requests, connections that say nothing, bodies cut off by a FIN or
/// an RST. Shared by the server's and the kiosk's tests.
public final class RawConnection: @unchecked Sendable {
    private var descriptor: Int32

    /// `source`: the local address to connect from (another loopback address such as
    /// 127.0.0.7, so the server sees a different peer); nil for the system's choice.
    private let port: Int
    private let source: String?

    public init(port: Int, from source: String? = nil) throws {
        self.port = port
        self.source = source
        descriptor = try Self.connect(port: port, from: source)
    }

    private static func connect(port: Int, from source: String?) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                Glibc.close(descriptor)
                throw POSIXError(.EADDRNOTAVAIL)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        // Reads never block: `answer()` polls, so a test that waits for an answer holds no thread.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        return descriptor
    }

    /// Closes the connection and opens a new one to the same port, in its place.
    public func reopen() throws {
        close()
        descriptor = try Self.connect(port: port, from: source)
    }

    deinit { close() }

    /// Closes the connection (a FIN) now. A test that holds connections open closes them with
    /// this, or keeps them with `withExtendedLifetime`: an optimized build may end a local's
    /// lifetime at its last use, which would close them early.
    public func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    /// Ends what this side sends (a FIN), as a client that is killed or finishes early does;
    /// the answer can still be read.
    public func finishSending() { _ = shutdown(descriptor, Int32(SHUT_WR)) }

    /// Drops the connection with a reset (RST) instead of a FIN.
    public func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close()
    }

    public func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The first `count` bytes the server sent, left unread (MSG_PEEK), once they are there (or
    /// what there is when `limit` passes): e.g. "HTTP/1.1 200" shows the server took the connection.
    public func peek(_ count: Int, within limit: Duration = .seconds(10)) async throws -> String {
        var buffer = [UInt8](repeating: 0, count: count)
        var seen = 0
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            seen = max(0, buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, count, Int32(MSG_PEEK)) })
            if seen >= count { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        return String(decoding: buffer[0..<seen], as: UTF8.self)
    }

    /// The answer to `GET path` on a new connection, asked every 100 ms for up to 10 s until its
    /// status line starts with `status` (`"HTTP/1.1 503"`: one more connection once held ones
    /// fill a server's cap; `"HTTP/1.1 200"`: a slot freed once the server has seen a held
    /// connection close); the last answer. A server counts a connection when it handles its
    /// accept, which a loaded machine may delay, so a single try right after may come too soon.
    ///
    /// `held`: connections the test holds open to fill a cap. A server counts each connection
    /// as it sets it up, each on its own event loop, and on a busy machine it may set up a held
    /// one after the probe: that held one is then the refused one (it would get its 503 only
    /// once it sent a request) and the probe is taken, and so is every probe after it. So every
    /// fifth try opens the held connections again, and each try waits 100 ms after the held
    /// connections were opened before its probe.
    public static func answerOnceItIs(_ status: String, port: Int, path: String, held: [RawConnection] = []) async throws -> String {
        var answer = ""
        for attempt in 0..<100 {
            if !held.isEmpty {
                if attempt > 0 && attempt % 5 == 0 { for connection in held { try connection.reopen() } }
                try await Task.sleep(for: .milliseconds(100))
            }
            let connection = try RawConnection(port: port)
            connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = try await connection.answer()
            if answer.hasPrefix(status) { return answer }
            try await Task.sleep(for: .milliseconds(100))
        }
        return answer
    }

    /// Everything the server sends until it closes the connection (or `limit` passes), read
    /// without blocking: when nothing is there yet, the task sleeps 10 ms and looks again. The
    /// default limit is long (30 s) because the answer ends when the server closes: a loaded
    /// machine may take more than a few seconds to answer, and a test must not read its delay
    /// as "no answer". A test that expects silence passes a short limit.
    public func answer(within limit: Duration = .seconds(30)) async throws -> String {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[0..<count]
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                try await Task.sleep(for: .milliseconds(10))
            } else {
                break
            }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// The body of an HTTP answer, parsed as a JSON object.
    public static func jsonBody(of answer: String) -> [String: Any] {
        guard let range = answer.range(of: "\r\n\r\n") else { return [:] }
        let body = Data(answer[range.upperBound...].utf8)
        return (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }
}
