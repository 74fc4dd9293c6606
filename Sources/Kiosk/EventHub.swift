import Foundation
import InventoryCore
import NIOConcurrencyHelpers
import NIOCore

/// Pushes server-sent events to every open page. Each page gets its own bounded buffer: a
/// page that stops reading loses its oldest events (it reloads the state when it reconnects),
/// and never holds the kiosk's memory or slows the others.
final class EventHub: Sendable {
    private let subscribers = NIOLockedValueBox<[UUID: AsyncStream<ByteBuffer>.Continuation]>([:])
    static let bufferLimit = 256

    /// A stream of encoded events for one page, ended when the page goes.
    func subscribe() -> (id: UUID, stream: AsyncStream<ByteBuffer>) {
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingNewest(Self.bufferLimit))
        let id = UUID()
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        subscribers.withLockedValue { $0[id] = continuation }
        return (id, stream)
    }

    func unsubscribe(_ id: UUID) {
        let continuation = subscribers.withLockedValue { $0.removeValue(forKey: id) }
        continuation?.finish()
    }

    var count: Int { subscribers.withLockedValue { $0.count } }

    /// Sends `event` with `payload` as one line of JSON to every page.
    func publish(_ event: String, _ payload: some Encodable) {
        guard let data = try? JSONEncoder.auditStation().encode(payload) else { return }
        send(Self.frame(event: event, data: data))
    }

    /// A comment line that keeps proxies and the browser from timing the stream out.
    func keepAlive() { send(ByteBuffer(string: ": keep-alive\n\n")) }

    func finishAll() {
        let all = subscribers.withLockedValue { current -> [AsyncStream<ByteBuffer>.Continuation] in
            defer { current.removeAll() }
            return Array(current.values)
        }
        for continuation in all { continuation.finish() }
    }

    private func send(_ buffer: ByteBuffer) {
        let all = subscribers.withLockedValue { Array($0.values) }
        for continuation in all { continuation.yield(buffer) }
    }

    static func frame(event: String, data: Data) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeString("event: \(event)\ndata: ")
        buffer.writeBytes(data) // JSON without pretty-printing has no newline
        buffer.writeString("\n\n")
        return buffer
    }
}
