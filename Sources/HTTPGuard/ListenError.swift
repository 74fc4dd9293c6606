import Foundation
import NIOCore
import Synchronization

/// A server (the audit API, the back office, the kiosk) that could not listen on its address,
/// said as the person who typed `--host` and `--port` should read it, in place of the socket
/// call's own words (`bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)`).
public struct ListenError: Error, LocalizedError {
    public let host: String
    public let port: Int
    /// What went wrong and what to do about it.
    public let reason: String

    public var errorDescription: String? { "cannot listen on \(host):\(port): \(reason)" }

    /// `error` as a failure to listen on `host`:`port`, or nil when it is any other failure: a
    /// host that is no name or address, an address this machine does not have, a port that is
    /// taken or that needs root.
    public init?(_ error: any Error, host: String, port: Int) {
        self.host = host
        self.port = port
        if error is SocketAddressError.UnknownHost {
            reason = "'\(host)' is no address or name of this machine (--host takes one of its own addresses, or 0.0.0.0 for all)"
            return
        }
        guard let io = error as? IOError else { return nil }
        switch io.errnoCode {
        case EADDRINUSE: reason = "another program uses that port (choose another --port, or stop the other program)"
        case EADDRNOTAVAIL: reason = "this machine has no such address (--host takes one of its own addresses, or 0.0.0.0 for all)"
        case EACCES: reason = "ports below 1024 need root (choose a --port from 1024 up)"
        default: return nil
        }
    }

    /// Runs a server's `body`, with a failure to listen said as a `ListenError`: only a failure
    /// before `start` was told the server listens (from its `onServerRunning`). An error of the
    /// same kind later in the server's life (a socket's, a file's) is not about its address.
    public static func whileListening<T>(
        host: String, port: Int, start: ListenStart, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async throws -> T {
        do {
            return try await body()
        } catch {
            guard !start.hasBegun, let failure = ListenError(error, host: host, port: port) else { throw error }
            throw failure
        }
    }
}

/// Whether a server has begun to listen on its address: told from its `onServerRunning`.
public final class ListenStart: Sendable {
    private let begun = Atomic<Bool>(false)

    public init() {}

    /// The server listens: failures from now on are not failures to listen.
    public func began() { begun.store(true, ordering: .releasing) }

    public var hasBegun: Bool { begun.load(ordering: .acquiring) }
}
