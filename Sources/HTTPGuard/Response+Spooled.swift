import Foundation
import Hummingbird
import NIOCore

/// Shared by the server's and the kiosk's downloads (reports).
extension Response {
    /// An answer that `write` produces in pieces, spooled to a temporary file first, so a failure
    /// half-way answers an error rather than half a download, then streamed from the file in
    /// 64 KiB pieces and removed. Memory does not grow with the answer, and a reader that stalls
    /// is dropped after the connection's write timeout, which removes the file too.
    public static func spooled(
        contentType: String, fileName: String, spoolPrefix: String = "audit-answer-",
        write: (@escaping @Sendable (Data) throws -> Void) async throws -> Void
    ) async throws -> Response {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(spoolPrefix)\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        let spool: SpoolFile
        let size: Int
        do {
            let writer = try FileHandle(forWritingTo: file)
            defer { try? writer.close() }
            try await write { try writer.write(contentsOf: $0) }
            size = Int(try writer.offset())
            spool = SpoolFile(url: file, reader: try FileHandle(forReadingFrom: file))
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
        return Response(
            status: .ok,
            headers: [.contentType: contentType, .contentDisposition: "attachment; filename=\"\(fileName)\""],
            body: ResponseBody(contentLength: size) { body in
                while let chunk = try spool.reader.read(upToCount: 64 * 1024), !chunk.isEmpty {
                    try await body.write(ByteBuffer(bytes: chunk))
                }
                try await body.finish(nil)
            })
    }
}

/// The spooled file of one answer. It is removed when the answer is released: after it was
/// sent, when its reader was dropped, and also when the connection went before the body was
/// ever written (then the body's closure is never run, only released).
final class SpoolFile: @unchecked Sendable {
    let url: URL
    let reader: FileHandle

    init(url: URL, reader: FileHandle) {
        self.url = url
        self.reader = reader
    }

    deinit {
        try? reader.close()
        try? FileManager.default.removeItem(at: url)
    }
}
