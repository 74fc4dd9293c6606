import AuditTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to the test server, for what an HTTP client library would not send:
/// partial headers, malformed requests, connections that say nothing.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(descriptor); throw POSIXError(.ECONNREFUSED) }
        // Every read gives up after 10 s, so a test that waits for an answer cannot hang.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything the server sends until it closes the connection (or 10 s pass).
    func readUntilClosed() -> String {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// The same, read on a thread of its own, so the test server keeps its share of the pool.
    func answer() async throws -> String {
        try await offPool { self.readUntilClosed() }
    }

    /// The body of an HTTP answer, parsed as a JSON object.
    static func jsonBody(of answer: String) -> [String: Any] {
        guard let range = answer.range(of: "\r\n\r\n") else { return [:] }
        let body = Data(answer[range.upperBound...].utf8)
        return (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }
}
