import Foundation
import GRDB
import InventoryCore

/// A typed count of an accessory ("How many?", `audit count`) kept on the station until the
/// server has it, in its place among the station's scans.
public struct QueuedCount: Sendable, Equatable {
    public var seq: Int64
    public var request: CountRequest
    public var countedAt: Date
    /// The newest scan of the outbox when the count was made: it is sent after that one.
    public var afterScanSeq: Int64
    public var state: OutboxState

    init(row: Row) {
        seq = row["seq"]
        request = CountRequest(
            tag: row["tag"], quantity: row["quantity"], auditId: row["audit_id"], location: row["location"], countId: row["count_id"],
            deviceName: row["station"], user: row["user"])
        countedAt = row["counted_at"]
        afterScanSeq = row["after_scan_seq"]
        state = OutboxState(rawValue: row["state"]) ?? .pending
    }
}

extension StationOutbox {
    /// Keeps a count (with its `countId`, `auditId`, `deviceName` and `user` filled) behind the
    /// scans made before it. Keeping it again with the same id changes nothing.
    public func queueCount(_ request: CountRequest, at now: Date = Date()) async throws -> QueuedCount {
        guard let countID = request.countId, let auditID = request.auditId else {
            throw InventoryError.unavailable("A count kept for the server needs its audit and its own id")
        }
        return try await database.write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO outbox_counts (count_id, audit_id, tag, quantity, location, station, user, counted_at, after_scan_seq)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, (SELECT coalesce(max(seq), 0) FROM outbox))
                    """,
                arguments: [
                    countID, auditID, request.tag, request.quantity, request.location, request.deviceName ?? "", request.user ?? "", now
                ])
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM outbox_counts WHERE count_id = ?", arguments: [countID]) else {
                throw InventoryError.unavailable("The count \(countID) could not be kept on this station")
            }
            return QueuedCount(row: row)
        }
    }

    /// The place of the oldest count still waiting: scans after it wait until it is sent (nil: none waits).
    public func firstCountMark() async throws -> Int64? {
        try await database.read { db in
            try Int64.fetchOne(db, sql: "SELECT after_scan_seq FROM outbox_counts WHERE state = 'pending' ORDER BY seq LIMIT 1")
        }
    }

    /// Whether counts or scans of `auditID` still wait for the server (a new count goes behind them).
    public func holdsWaiting(auditID: AuditID) async throws -> Bool {
        try await database.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM outbox WHERE state = 'pending' AND audit_id = ?1)
                        OR EXISTS (SELECT 1 FROM outbox_counts WHERE state = 'pending' AND audit_id = ?1)
                    """, arguments: [auditID]) ?? false
        }
    }

    /// The counts waiting whose earlier scans the server has all answered, oldest first.
    public func readyCounts(limit: Int = 100) async throws -> [QueuedCount] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.* FROM outbox_counts c WHERE c.state = 'pending'
                        AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.state = 'pending' AND o.seq <= c.after_scan_seq)
                    ORDER BY c.seq LIMIT ?
                    """, arguments: [limit]
            ).map(QueuedCount.init(row:))
        }
    }

    /// The server's answer to a kept count: stored there (`synced`) or refused for good (`rejected`).
    public func settleCount(countID: String, state: OutboxState, message: String) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE outbox_counts SET state = ?, server_message = ?, synced_at = ? WHERE count_id = ?",
                arguments: [state.rawValue, message, Date(), countID])
        }
    }

    /// A failed attempt to send a count: it stays queued.
    public func noteCountFailure(countID: String, error: String) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE outbox_counts SET attempts = attempts + 1, last_error = ? WHERE count_id = ?", arguments: [error, countID])
            try Self.setState(db, "last_error", error)
        }
    }

    /// The counts of `auditID` still waiting for the server.
    public func pendingCounts(auditID: AuditID) async throws -> Int {
        try await database.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox_counts WHERE state = 'pending' AND audit_id = ?", arguments: [auditID]) ?? 0
        }
    }
}
