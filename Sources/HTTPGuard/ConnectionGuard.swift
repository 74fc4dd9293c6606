import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// One per connection, after the HTTP codec: refuses connections beyond the caps (in all and
/// per address) with 503, closes connections whose headers do not arrive in time or whose body
/// trickles in slower than the minimum with 408, closes connections that do not take their
/// answer within the write timeout, and answers requests the HTTP parser rejects with a 400 in
/// the server's own error format (`Refusal`; Hummingbird's own answer has no body).
/// A body that ends early (the connection closed before its `Content-Length` or its last chunk,
/// or a chunk that cannot be read) is an error that reaches the handler reading it, never a
/// normal end of the body, so a streamed import rolls back.
public final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    public typealias InboundIn = HTTPRequestPart
    public typealias InboundOut = HTTPRequestPart
    public typealias OutboundIn = HTTPResponsePart
    public typealias OutboundOut = HTTPResponsePart

    private let count: ConnectionCount
    private let limits: ConnectionLimits
    private let answer: @Sendable (Refusal) -> RefusalAnswer
    private var address: String?
    private var refusing = false
    /// A request head arrived and its response has not ended.
    private var inRequest = false
    /// A request head arrived and the end of its body has not.
    private var bodyOpen = false
    /// The answer to the current request has begun to be written.
    private var responseStarted = false
    /// A request on this connection has been answered, so it is a kept-alive one.
    private var answeredOnce = false
    private var replied = false
    private var headerTimer: Scheduled<Void>?
    private var writeTimer: Scheduled<Void>?
    private var bodyClock = BodyClock()
    private var bodyTimer: RepeatedTask?

    /// `answer` writes a refusal in the server's own error format.
    public init(count: ConnectionCount, limits: ConnectionLimits, answer: @escaping @Sendable (Refusal) -> RefusalAnswer) {
        self.count = count
        self.limits = limits
        self.answer = answer
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        refusing = !count.open(address: address, limits: limits)
        // Only a counted connection is taken off the count when it closes.
        self.address = refusing ? nil : address
        startHeaderTimer(context)
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        headerTimer?.cancel()
        writeTimer?.cancel()
        bodyTimer?.cancel()
        if let address {
            count.close(address: address)
            self.address = nil
        }
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head: break
        case .body(let buffer):
            bodyClock.received(buffer.readableBytes)
            if !refusing && !replied { context.fireChannelRead(data) }
            return
        case .end:
            endBody()
            if !refusing && !replied { context.fireChannelRead(data) }
            return
        }
        headerTimer?.cancel()
        headerTimer = nil
        if refusing {
            reply(context, .busy(retryAfter: limits.retryAfterSeconds))
            return
        }
        inRequest = true
        startBodyClock()
        context.fireChannelRead(data)
    }

    public func channelReadComplete(context: ChannelHandlerContext) {
        bodyClock.readAnswered(at: .now())
        if bodyOpen && bodyTimer == nil && !replied { startBodyTimer(context) }
        context.fireChannelReadComplete()
    }

    public func read(context: ChannelHandlerContext) {
        if bodyOpen { bodyClock.readAsked(at: .now()) }
        context.read()
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
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

    public func channelWritabilityChanged(context: ChannelHandlerContext) {
        // A client that stops taking its answer fills the connection; one that stays full for
        // the write timeout is dropped, and the handler writing to it fails.
        writeTimer?.cancel()
        writeTimer = nil
        if !context.channel.isWritable {
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            writeTimer = context.eventLoop.scheduleTask(in: limits.writeTimeout) { loopBound.value.close(promise: nil) }
        }
        context.fireChannelWritabilityChanged()
    }

    public func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        // A body that breaks off (the connection closes early, a bad chunk) must fail its
        // reader, so the error goes on to the handler first; the reply below closes the
        // connection, and a close that came first would read as the body's normal end.
        if bodyOpen || responseStarted {
            endBody()
            context.fireErrorCaught(error)
        }
        // The request is answered here, unless its answer has already begun.
        if !responseStarted {
            reply(context, .malformed("this is not an HTTP/1.1 request the server can read (\(error))"))
        }
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
            if handler.answeredOnce { context.close(promise: nil) } else { handler.reply(context, .timeout(seconds: seconds)) }
        }
    }

    /// Watches the body's pace from its head to its end: see `BodyClock`. The timer starts once
    /// a read ends with the body still open, so a request whose body came whole with its head
    /// (every GET) costs no timer.
    private func startBodyClock() {
        bodyOpen = true
        bodyClock = BodyClock()
    }

    private func startBodyTimer(_ context: ChannelHandlerContext) {
        let tick = TimeAmount.nanoseconds(max(limits.bodyWindow.nanoseconds / 10, 1_000_000))
        let loopBound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        bodyTimer = context.eventLoop.scheduleRepeatedTask(initialDelay: tick, delay: tick) { _ in
            let (handler, context) = loopBound.value
            guard handler.bodyOpen,
                handler.bodyClock.isTooSlow(at: .now(), window: handler.limits.bodyWindow, minBytes: handler.limits.minBodyBytes)
            else { return }
            handler.bodyTooSlow(context)
        }
    }

    private func endBody() {
        bodyOpen = false
        bodyTimer?.cancel()
        bodyTimer = nil
    }

    /// The body trickles in too slowly: its reader fails (an import rolls back) and the client
    /// gets 408, or the connection just closes when an answer has begun.
    private func bodyTooSlow(_ context: ChannelHandlerContext) {
        endBody()
        let seconds = max(1, Int(limits.bodyWindow.nanoseconds / 1_000_000_000))
        context.fireErrorCaught(Refusal.timeout(seconds: seconds))
        if bodyOpen || responseStarted { context.close(promise: nil) } else { reply(context, .timeout(seconds: seconds)) }
    }

    /// Writes one failure in the envelope and closes the connection.
    private func reply(_ context: ChannelHandlerContext, _ refusal: Refusal) {
        guard !replied else { return }
        replied = true
        headerTimer?.cancel()
        endBody()
        let answer = answer(refusal)
        var fields: HTTPFields = [.contentType: answer.contentType, .contentLength: String(answer.body.count), .connection: "close"]
        if let seconds = refusal.retryAfter { fields[.retryAfter] = String(seconds) }
        context.write(wrapOutboundOut(.head(HTTPResponse(status: .init(code: refusal.status), headerFields: fields))), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: answer.body))), promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in loopBound.value.close(promise: nil) }
    }
}
