import AuditAPI
import Foundation
import Hummingbird
import InventoryCore
import NIOCore

extension Request {
    /// Whether the body is CSV (`Content-Type: text/csv`, with or without parameters).
    var isCSV: Bool {
        guard let type = headers[.contentType] else { return false }
        return type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "text/csv"
    }

    /// The body written to a temporary file as it arrives, up to `limit` bytes (more is 413).
    /// Nothing of the database is held meanwhile, so a slow or stalled upload keeps no lock: the
    /// import starts once the body is whole, and a body that breaks off never reaches it.
    func spoolBody(limit: Int) async throws -> SpooledBody {
        let spooled = try SpooledBody()
        do {
            var written = 0
            for try await buffer in body {
                written += buffer.readableBytes
                guard written <= limit else { throw APIFailure.bodyTooLarge(limit: limit) }
                try spooled.append(buffer)
            }
            try spooled.finishWriting()
            return spooled
        } catch {
            spooled.remove()
            throw error
        }
    }
}

/// A request body in a temporary file, readable once as blocks; `remove` deletes it.
final class SpooledBody: Sendable {
    let url: URL
    private let writer: FileHandle

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("audit-upload-\(UUID().uuidString).csv")
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw InventoryError.storage("cannot create a temporary file for the upload in \(url.deletingLastPathComponent().path)")
        }
        writer = try FileHandle(forWritingTo: url)
    }

    func append(_ buffer: ByteBuffer) throws { try writer.write(contentsOf: buffer.readableBytesView) }

    func finishWriting() throws { try writer.close() }

    /// The file as blocks, read as the consumer asks for them.
    func blocks() throws -> AsyncThrowingStream<[UInt8], any Error> {
        FileBlocks.stream(try FileHandle(forReadingFrom: url))
    }

    func remove() {
        try? writer.close()
        try? FileManager.default.removeItem(at: url)
    }
}
