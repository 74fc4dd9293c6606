import Foundation
import Hummingbird
import InventoryCore
import NIOCore

extension Response {
    /// An answer that `write` produces in pieces, spooled to a temporary file first, so a failure
    /// half-way answers an error rather than half a download, then streamed from the file in
    /// 64 KiB pieces and removed. Memory does not grow with the answer, and a reader that stalls
    /// is dropped after the connection's write timeout, which removes the file too.
    static func spooled(
        contentType: String, fileName: String,
        write: (@escaping @Sendable (Data) throws -> Void) async throws -> Void
    ) async throws -> Response {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("audit-answer-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw InventoryError.storage("cannot create a temporary file in \(file.deletingLastPathComponent().path)")
        }
        let reader: FileHandle
        let size: Int
        do {
            let writer = try FileHandle(forWritingTo: file)
            defer { try? writer.close() }
            try await write { try writer.write(contentsOf: $0) }
            size = Int(try writer.offset())
            reader = try FileHandle(forReadingFrom: file)
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
        return Response(
            status: .ok,
            headers: [.contentType: contentType, .contentDisposition: "attachment; filename=\"\(fileName)\""],
            body: ResponseBody(contentLength: size) { body in
                defer {
                    try? reader.close()
                    try? FileManager.default.removeItem(at: file)
                }
                while let chunk = try reader.read(upToCount: 64 * 1024), !chunk.isEmpty {
                    try await body.write(ByteBuffer(bytes: chunk))
                }
                try await body.finish(nil)
            })
    }
}
