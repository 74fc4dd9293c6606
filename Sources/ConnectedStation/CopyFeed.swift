import AuditClient
import Foundation
import InventoryCore
import ConnectedStore

/// Takes the pieces of an audit's copy as they arrive and writes them into the copy, one
/// chunk while the next is read: at most two chunks are held, whatever the audit's size.
final class CopyFeed {
    let copies: StationCopy
    let copy: NewCopy
    private(set) var unexpected: [AuditSnapshot.Unexpected] = []
    private var writing: Task<Void, any Error>?

    init(copies: StationCopy, copy: NewCopy) {
        self.copies = copies
        self.copy = copy
    }

    /// Rows per chunk written in one transaction.
    static let chunk = 10_000

    /// Unexpected entries are kept for the end: they are few, and written with the copy's completion.
    func take(_ entries: [AuditSnapshot.Unexpected]) { unexpected += entries }

    func take(_ part: CopyPart) async throws {
        try await writing?.value
        let copies = copies, copy = copy
        writing = Task { try await copies.add(part, to: copy) }
    }

    /// Waits for the last chunk.
    func finish() async throws {
        try await writing?.value
        writing = nil
    }
}
