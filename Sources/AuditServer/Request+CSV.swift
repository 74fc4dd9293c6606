import Foundation
import Hummingbird
import NIOCore

extension Request {
    /// Whether the body is CSV (`Content-Type: text/csv`, with or without parameters).
    var isCSV: Bool {
        guard let type = headers[.contentType] else { return false }
        return type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "text/csv"
    }

    /// The body as blocks of bytes, read from the connection only as the consumer asks for
    /// them. Nothing collects the body, so the upload size limit does not apply: an inventory of
    /// any size passes through a few blocks of memory, and a slow database slows the upload.
    func bodyBlocks() -> AsyncThrowingStream<[UInt8], any Error> {
        let source = BodySource(body)
        return AsyncThrowingStream { try await source.next() }
    }
}

/// The stream asks for one block at a time, so the iterator is never used from two places.
private final class BodySource: @unchecked Sendable {
    private var iterator: RequestBody.AsyncIterator

    init(_ body: RequestBody) { iterator = body.makeAsyncIterator() }

    func next() async throws -> [UInt8]? {
        guard let buffer = try await iterator.next() else { return nil }
        return Array(buffer.readableBytesView)
    }
}
