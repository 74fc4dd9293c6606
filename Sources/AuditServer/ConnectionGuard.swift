import AuditAPI
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Limits on each connection, so slow or abusive clients cannot hold the server.
public struct ConnectionLimits: Sendable {
    /// Connections open at once; one more is answered 503 with `Retry-After` and closed.
    public var maxConnections: Int
    /// A request's headers must be complete this long after the connection opens, else 408; a
    /// kept-alive connection with no new request for this long is closed.
    public var headerTimeout: TimeAmount
    /// No byte at all for this long closes the connection (Hummingbird's idle timeout).
    public var idleTimeout: TimeAmount
    /// What a refused client is told to wait.
    public var retryAfterSeconds: Int

    public init(
        maxConnections: Int = 512, headerTimeout: TimeAmount = .seconds(10), idleTimeout: TimeAmount = .seconds(30),
        retryAfterSeconds: Int = 2
    ) {
        self.maxConnections = maxConnections
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.retryAfterSeconds = retryAfterSeconds
    }
}

/// The number of connections the server has open.
final class ConnectionCount: Sendable {
    private let value = NIOLockedValueBox(0)
    func open() -> Int {
        value.withLockedValue {
            $0 += 1
            return $0
        }
    }
    func close() { value.withLockedValue { $0 -= 1 } }
}

/// One per connection, after the HTTP codec: refuses connections beyond the cap with 503,
/// closes connections whose headers do not arrive in time with 408, and answers requests the
/// HTTP parser rejects with a 400 in the JSON envelope (Hummingbird's own answer has no body).
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let count: ConnectionCount
    private let limits: ConnectionLimits
    private var counted = false
    private var refusing = false
    /// A request head arrived and its response has not ended.
    private var inRequest = false
    /// The answer to the current request has begun to be written.
    private var responseStarted = false
    /// A request on this connection has been answered, so it is a kept-alive one.
    private var answeredOnce = false
    private var replied = false
    private var headerTimer: Scheduled<Void>?

    init(count: ConnectionCount, limits: ConnectionLimits) {
        self.count = count
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        counted = true
        refusing = count.open() > limits.maxConnections
        startHeaderTimer(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        headerTimer?.cancel()
        if counted {
            count.close()
            counted = false
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head = unwrapInboundIn(data) else {
            if !refusing && !replied { context.fireChannelRead(data) }
            return
        }
        headerTimer?.cancel()
        headerTimer = nil
        if refusing {
            reply(context, APIFailure.serverBusy(retryAfter: limits.retryAfterSeconds))
            return
        }
        inRequest = true
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard !replied else {
            // This guard already answered and is closing the connection.
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head: responseStarted = true
        case .body: break
        case .end:
            inRequest = false
            responseStarted = false
            answeredOnce = true
            startHeaderTimer(context)
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A request that breaks off mid-body (a bad chunk, say) is answered here too, unless its
        // answer has already begun.
        if error is HTTPParserError, !responseStarted {
            reply(context, APIFailure.malformed("this is not an HTTP/1.1 request the server can read (\(error))"))
            return
        }
        context.fireErrorCaught(error)
    }

    private func startHeaderTimer(_ context: ChannelHandlerContext) {
        headerTimer?.cancel()
        let seconds = Int(limits.headerTimeout.nanoseconds / 1_000_000_000)
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        headerTimer = context.eventLoop.scheduleTask(in: limits.headerTimeout) {
            let (handler, context) = loopBound.value
            guard !handler.inRequest else { return }
            // A kept-alive connection that waited is closed without a word, as keep-alive
            // timeouts are: an answer there could be taken for the answer to a request that
            // crosses it on the wire.
            if handler.answeredOnce { context.close(promise: nil) } else { handler.reply(context, APIFailure.requestTimeout(seconds: seconds)) }
        }
    }

    /// Writes one failure in the envelope and closes the connection.
    private func reply(_ context: ChannelHandlerContext, _ failure: APIFailure) {
        guard !replied else { return }
        replied = true
        headerTimer?.cancel()
        let body = (try? JSONEncoder.auditStation().encode(FailureEnvelope(failure))) ?? Data()
        var fields: HTTPFields = [.contentType: "application/json; charset=utf-8", .contentLength: String(body.count), .connection: "close"]
        if let seconds = failure.retryAfter { fields[.retryAfter] = String(seconds) }
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .init(code: failure.status), headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in loopBound.value.close(promise: nil) }
    }
}
