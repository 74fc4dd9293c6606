import Foundation
import TestKit
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// An audit API server that knows SPEC.md and the seeds and nothing of ours: login answers bare
/// as seed 000's backend does, and only SPEC's audit calls exist (no `audits` in `/status`, no
/// `GET /audit/{id}`, no snapshot; those answer 404). It runs on 127.0.0.1 over `SpecAudits`,
/// which outlives a stop, so a test can take the server away and bring it back on its port.
public final class SpecServer: Sendable {
    public let port: Int
    public let audits: SpecAudits
    private let task: Task<Void, any Error>
    private let shutDown: @Sendable () async -> Void

    private init(port: Int, audits: SpecAudits, task: Task<Void, any Error>, shutDown: @escaping @Sendable () async -> Void) {
        self.port = port
        self.audits = audits
        self.task = task
        self.shutDown = shutDown
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    static let routes: [(HTTPRequest.Method, String)] = [
        (.post, "/api/v1/auth/login"), (.post, "/api/v1/auth/logout"),
        (.get, "/api/v1/audit/status"), (.get, "/api/v1/audit/countries"), (.post, "/api/v1/audit/start"),
        (.post, "/api/v1/audit/scan"), (.post, "/api/v1/audit/end"), (.get, "/api/v1/audit/details/{list}"),
        (.get, "/api/v1/audit/history")
    ]

    /// Starts on `port` (0: any free port) over `audits`.
    public static func start(audits: SpecAudits = SpecAudits(), port: Int = 0) async throws -> SpecServer {
        let router = Router()
        for (method, route) in routes {
            router.on(RouterPath(route), method: method) { request, context in
                let body = try await request.body.collect(upTo: 1 << 20)
                var query: [String: String] = [:]
                for (name, value) in request.uri.queryParameters {
                    query[String(name)] = String(value).removingPercentEncoding ?? String(value)
                }
                let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
                let call = SpecCall(
                    method: method.rawValue, route: route, list: context.parameters.get("list"), query: query,
                    body: Data(body.readableBytesView), token: bearer)
                let (status, data) = await audits.handle(call)
                return Response(
                    status: .init(code: status), headers: [.contentType: "application/json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
            }
        }
        var logger = Logger(label: "spec-server")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? port) }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task(executorPreference: ThreadsExecutor.preferred) { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else { throw SpecServerError("the SPEC-only server did not start") }
        return SpecServer(port: bound, audits: audits, task: task, shutDown: { await group.triggerGracefulShutdown() })
    }

    public func stop() async {
        await stopGracefully(task, shutDown: shutDown)
    }

    /// Runs `body` with a fresh server and stops it afterwards, whether `body` returns or throws.
    public static func with<T>(_ body: (SpecServer) async throws -> T) async throws -> T {
        let server = try await start()
        return try await withCleanup({ try await body(server) }, cleanup: { await server.stop() })
    }
}

struct SpecServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
