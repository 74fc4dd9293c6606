import AuditAPI
import Foundation
import Hummingbird
import InventoryCore
import NIOCore

extension AuditController {
    /// `GET /api/v1/audit/{audit_id}/snapshot`: the lines of `SnapshotLines`, written as they are
    /// read, one page of `AuditSnapshot.pageSize` rows at a time by keyset (asset id, then key),
    /// the next page read while the last is written. Only the expected set and the unexpected
    /// entries are sent. A failure after the first line ends the stream without its `end` line,
    /// so the station keeps nothing of it.
    func snapshotStream(_ audit: AuditSession) -> Response {
        let audits = self.audits
        let logger = self.logger
        let body = ResponseBody { writer in
            do {
                try await writer.write(ByteBuffer(bytes: try SnapshotLines.header(audit)))
                let size = AuditSnapshot.pageSize
                var expected = 0
                var page = try await audits.snapshotExpected(auditID: audit.id, after: nil, limit: size)
                while !page.isEmpty {
                    let after = page.last?.asset.id, more = page.count == size, auditID = audit.id
                    async let next = Self.expectedPage(audits, auditID: auditID, after: after, size: size, more: more)
                    var bytes: [UInt8] = []
                    bytes.reserveCapacity(page.count * 96)
                    for entry in page { SnapshotLines.append(entry, to: &bytes) }
                    expected += page.count
                    try await writer.write(ByteBuffer(bytes: bytes))
                    page = try await next
                }
                var unexpected = 0
                var after: String?
                while true {
                    let entries = try await audits.snapshotUnexpected(auditID: audit.id, after: after, limit: size)
                    var bytes: [UInt8] = []
                    for entry in entries { SnapshotLines.append(entry, to: &bytes) }
                    if !bytes.isEmpty { try await writer.write(ByteBuffer(bytes: bytes)) }
                    unexpected += entries.count
                    after = entries.last?.key
                    if entries.count < size { break }
                }
                try await writer.write(ByteBuffer(bytes: try SnapshotLines.end(.init(expected: expected, unexpected: unexpected))))
                try await writer.finish(nil)
            } catch {
                logger.error("The snapshot stream of an audit stopped", metadata: ["audit": "\(audit.id)", "error": "\(error)"])
                throw error
            }
        }
        return Response(status: .ok, headers: [.contentType: "\(SnapshotLines.contentType); charset=utf-8"], body: body)
    }

    /// The page after `after`, or none when the last page was short.
    private static func expectedPage(
        _ audits: any ServerAuditService, auditID: AuditID, after: Int64?, size: Int,
        more: Bool
    ) async throws -> [AuditSnapshot.Expected] {
        guard more else { return [] }
        return try await audits.snapshotExpected(auditID: auditID, after: after, limit: size)
    }
}
