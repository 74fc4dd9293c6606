import AuditClient
import AsyncHTTPClient
import AuditAPI
import Foundation
import InventoryCore
import ConnectedStore
import NIOCore

/// Reads our snapshot stream (`SnapshotLines`) into a copy as it arrives: lines are parsed
/// from each network buffer and handed on a chunk at a time, so the station never holds the
/// expected set, and a stream cut short (no `end` line) is an error that keeps nothing.
struct SnapshotStream {
    let client: APIClient
    /// The whole stream's deadline: a million assets take seconds, not minutes.
    static let timeout: Duration = .seconds(600)

    /// The audit as the stream began, or nil when the server does not offer the stream.
    func read(auditID: AuditID, into feed: CopyFeed) async throws -> AuditSession? {
        let path = Routes.path(Routes.auditSnapshot, ["audit_id": auditID])
        guard let response = try await client.openStream(path, accept: SnapshotLines.contentType, timeout: Self.timeout),
            response.headers["content-type"].contains(where: { $0.contains("ndjson") })
        else { return nil }
        var reader = Reader(feed: feed)
        do {
            for try await buffer in response.body {
                try buffer.withUnsafeReadableBytes { try reader.take($0) }
                if reader.expected.count >= CopyFeed.chunk { try await reader.send() }
            }
        } catch let error as SnapshotLineError {
            throw InventoryError.unavailable("The server at \(client.baseURL) sent a copy of audit \(auditID) this station cannot read: \(error)")
        } catch let error as InventoryError {
            throw error
        } catch {
            throw InventoryError.unavailable("The copy of audit \(auditID) from \(client.baseURL) was cut short (\(APIClient.describe(error)))")
        }
        try await reader.flush()
        guard let audit = reader.audit, let counts = reader.counts else {
            throw InventoryError.unavailable("The copy of audit \(auditID) from \(client.baseURL) was cut short; nothing of it was kept")
        }
        guard counts.expected == reader.expectedCount, counts.unexpected == reader.unexpectedCount else {
            throw InventoryError.unavailable(
                "The copy of audit \(auditID) from \(client.baseURL) does not add up (\(reader.expectedCount) of \(counts.expected) expected assets)")
        }
        return audit
    }

    /// Splits buffers into lines and lines into chunks.
    struct Reader {
        let feed: CopyFeed
        var carry: [UInt8] = []
        var expected: [AuditSnapshot.Expected] = []
        var unexpected: [AuditSnapshot.Unexpected] = []
        var audit: AuditSession?
        var counts: SnapshotLines.Counts?
        var expectedCount = 0
        var unexpectedCount = 0

        init(feed: CopyFeed) {
            self.feed = feed
            expected.reserveCapacity(CopyFeed.chunk)
        }

        mutating func take(_ bytes: UnsafeRawBufferPointer) throws {
            var start = 0
            for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
                if carry.isEmpty {
                    try line(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
                } else {
                    carry.append(contentsOf: bytes[start..<index])
                    let whole = carry
                    carry.removeAll(keepingCapacity: true)
                    try whole.withUnsafeBytes { try line($0) }
                }
                start = index + 1
            }
            carry.append(contentsOf: bytes[start...])
        }

        mutating func line(_ bytes: UnsafeRawBufferPointer) throws {
            guard !bytes.isEmpty else { return }
            guard counts == nil else { throw SnapshotLineError.after }
            switch try SnapshotLines.parse(bytes) {
            case .header(let session): audit = session
            case .expected(let entry):
                expected.append(entry)
                expectedCount += 1
            case .unexpected(let entry):
                unexpected.append(entry)
                unexpectedCount += 1
            case .end(let end): counts = end
            }
        }

        mutating func send() async throws {
            if !expected.isEmpty {
                let chunk = expected
                expected.removeAll(keepingCapacity: true)
                try await feed.take(.expected(chunk))
            }
            if !unexpected.isEmpty {
                feed.take(unexpected)
                unexpected = []
            }
        }

        mutating func flush() async throws {
            if !carry.isEmpty {
                let rest = carry
                carry = []
                try rest.withUnsafeBytes { try line($0) }
            }
            try await send()
            try await feed.finish()
        }
    }
}

extension SnapshotLineError {
    static let after = SnapshotLineError("lines after its end")
}
