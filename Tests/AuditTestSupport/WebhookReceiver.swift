import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import ServiceLifecycle
import TestKit

/// A webhook receiver on 127.0.0.1: it checks each POST's signature with the secret it was
/// given (HMAC-SHA256 of the raw body, computed here independently of the server's code),
/// answers 500 to the first `failFirst` and 204 to the rest, and keeps every request.
public final class WebhookReceiver: Sendable {
    public struct Received: Sendable {
        public var event: String?
        public var delivery: String?
        public var signature: String?
        public var body: Data
        public var signatureValid: Bool
        public var answered: Int

        public var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
    }

    public let port: Int
    public var url: String { "http://127.0.0.1:\(port)/hook" }
    private let received: Locked<[Received]>
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, received: Locked<[Received]>, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.received = received
        self.group = group
        self.task = task
    }

    public var requests: [Received] { received.get() }
    /// The requests it took (answered 2xx).
    public var taken: [Received] { received.get().filter { (200..<300).contains($0.answered) } }

    /// Starts a receiver on `port` (0: any free port).
    public static func start(secret: String, failFirst: Int = 0, port: Int = 0) async throws -> WebhookReceiver {
        let received = Locked<[Received]>([])
        let key = SymmetricKey(data: Data(secret.utf8))
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 1 << 20)
            let body = Data(buffer.readableBytesView)
            let expected = "sha256=" + HMAC<SHA256>.authenticationCode(for: body, using: key).map { String(format: "%02x", $0) }.joined()
            let signature = request.headers[HTTPField.Name("X-AuditStation-Signature")!]
            let status: HTTPResponse.Status = received.update { list in list.count < failFirst ? .internalServerError : .noContent }
            received.update {
                $0.append(
                    Received(
                        event: request.headers[HTTPField.Name("X-AuditStation-Event")!],
                        delivery: request.headers[HTTPField.Name("X-AuditStation-Delivery")!], signature: signature, body: body,
                        signatureValid: signature == expected, answered: Int(status.code)))
            }
            return Response(status: status)
        }
        var logger = Logger(label: "webhook-receiver")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task(executorPreference: ThreadsExecutor.preferred) { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else { throw POSIXError(.EADDRINUSE) }
        return WebhookReceiver(port: bound, received: received, group: group, task: task)
    }

    /// Waits (for an event, polling every 50 ms) until `count` requests were taken, or `timeout`.
    public func waitForTaken(_ count: Int, timeout: Duration = .seconds(30)) async throws -> [Received] {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while taken.count < count, clock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        return taken
    }

    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
