import Foundation
import GRDB
import InventoryCore
import InventoryStore

/// A piece of an audit's expected set, as it arrives from the server.
public enum CopyPart: Sendable {
    case expected([AuditSnapshot.Expected])
    /// First scans of expected assets, for a server whose expected pages did not tell them
    /// (SPEC's `/details/scanned`).
    case scanned([ExpectedFirstScan])
}

public struct ExpectedFirstScan: Sendable, Equatable {
    public var assetID: Int64
    public var firstScan: FirstScan
    public init(assetID: Int64, firstScan: FirstScan) {
        self.assetID = assetID
        self.firstScan = firstScan
    }
}

/// A copy being made: its rows go in a chunk at a time under a number no held copy has, and
/// become the audit's copy in one transaction at the end (`completeCopy`). A copy cut short
/// (no network, a crash) leaves rows under an unused number, removed by the next copy made.
public struct NewCopy: Sendable {
    public let auditID: AuditID
    let ref: Int64
}

extension StationCopy {
    /// Starts a copy of `auditID`; the one held (if any) stays in use until `completeCopy`.
    public func beginCopy(auditID: AuditID) async throws -> NewCopy {
        try await database.write { db in
            let held = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(ref), 0) FROM replica_audits") ?? 0
            try db.execute(sql: "DELETE FROM replica_expected WHERE ref > ?", arguments: [held])
            return NewCopy(auditID: auditID, ref: held + 1)
        }
    }

    /// Adds a chunk to a copy being made, in one transaction. Unexpected entries are given at
    /// the end instead (`completeCopy`): they are few, and kept under the audit's id.
    public func add(_ part: CopyPart, to copy: NewCopy) async throws {
        switch part {
        case .expected(let entries):
            try await write(entries, ref: copy.ref)
        case .scanned(let scans):
            let ref = copy.ref
            let encoder = JSONEncoder.auditStation()
            try await database.write { db in
                let statement = try db.cachedStatement(sql: "UPDATE replica_expected SET first_scan = ? WHERE ref = ? AND asset_id = ?")
                for scan in scans { try statement.execute(arguments: [try Self.text(encoder, scan.firstScan), ref, scan.assetID]) }
            }
        }
    }

    /// Chunks of a copy are written without waiting for the disk (synchronous=OFF): a copy cut
    /// short is discarded anyway, and `completeCopy` commits with FULL, which syncs them all.
    private func write(_ entries: [AuditSnapshot.Expected], ref: Int64) async throws {
        try await database.writeUnsynced { db in
            let encoder = JSONEncoder.auditStation()
            let statement = try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO replica_expected (ref, asset_id, asset_tag, serial_num, name, model, status, location, company, country,
                                                             first_scan)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for entry in entries {
                let asset = entry.asset
                statement.setUncheckedArguments([
                    ref, asset.id, asset.assetTag, asset.serialNum, asset.name, asset.model,
                    asset.status.rawValue, asset.location, asset.company, asset.country,
                    try entry.firstScan.map { try Self.text(encoder, $0) }
                ])
                try statement.execute()
            }
        }
    }

    /// Makes the copy the audit's, in one transaction: the copy held before is dropped, the
    /// unexpected entries are written, and this station's pending scans of the audit are
    /// decided again on the new copy (marked in it and counted), so none is lost or counted twice.
    public func completeCopy(
        _ copy: NewCopy, session: AuditSession, unexpected: [AuditSnapshot.Unexpected],
        caseSensitive: Bool
    ) async throws {
        let encoder = JSONEncoder.auditStation()
        let decoder = JSONDecoder.auditStation()
        try await database.write { db in
            let id = copy.auditID
            if let old = try Int64.fetchOne(db, sql: "SELECT ref FROM replica_audits WHERE id = ?", arguments: [id]) {
                try db.execute(sql: "DELETE FROM replica_expected WHERE ref = ?", arguments: [old])
            }
            try db.execute(sql: "DELETE FROM replica_audits WHERE id = ?", arguments: [id])
            try db.execute(
                sql: "INSERT INTO replica_audits (id, session, pulled_at, ref) VALUES (?, ?, ?, ?)",
                arguments: [id, try Self.text(encoder, session), Date(), copy.ref])
            for entry in unexpected { try Self.insertUnexpected(db, auditID: id, entry, encoder: encoder) }
            guard let held = try Self.held(db, auditID: id, decoder: decoder) else { return }
            let lookup = CopyLookup(db: db, auditID: id, ref: held.ref, caseSensitive: caseSensitive, decoder: decoder)
            let pending = try Row.fetchAll(
                db, sql: "SELECT * FROM outbox WHERE state = 'pending' AND audit_id = ? ORDER BY seq",
                arguments: [id]
            ).map(OutboxEntry.init(row:))
            for entry in pending {
                let decision = try lookup.decide(entry.identifier, country: held.session.country, locations: held.session.locations)
                // What a pending scan adds was fixed when it was shown; only its mark is made again.
                try Self.mark(db, decision, entry: entry, copy: held, encoder: encoder, count: false)
            }
            // Voids the server has not had yet take their scans off the new copy again.
            for queued in try Self.pendingVoids(db, auditID: id) {
                try Self.unmark(db, queued, copy: held, lookup: lookup, encoder: encoder)
            }
            try db.execute(
                sql: """
                    UPDATE replica_audits SET
                        pending_scanned = (SELECT COALESCE(SUM(adds_scanned), 0) FROM outbox WHERE state = 'pending' AND audit_id = ?1)
                            + (SELECT COALESCE(SUM(scanned_delta), 0) FROM outbox_voids WHERE state = 'pending' AND audit_id = ?1),
                        pending_unexpected = (SELECT COALESCE(SUM(adds_unexpected), 0) FROM outbox WHERE state = 'pending' AND audit_id = ?1)
                            + (SELECT COALESCE(SUM(unexpected_delta), 0) FROM outbox_voids WHERE state = 'pending' AND audit_id = ?1)
                    WHERE id = ?1
                    """, arguments: [id])
        }
    }
}

extension StationCopy {
    /// Replaces the copy of an audit with rows given at once (a small copy, or a test's).
    public func store(
        audit: AuditSession, expected: [AuditSnapshot.Expected], unexpected: [AuditSnapshot.Unexpected] = [],
        caseSensitive: Bool = true
    ) async throws {
        let copy = try await beginCopy(auditID: audit.id)
        try await add(.expected(expected), to: copy)
        try await completeCopy(copy, session: audit, unexpected: unexpected, caseSensitive: caseSensitive)
    }
}

extension AppDatabase {
    /// One transaction committed without syncing to disk, for rows that matter only once a
    /// later FULL commit (which syncs everything before it) makes them count.
    func writeUnsynced<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = OFF")
                defer { try? db.execute(sql: "PRAGMA synchronous = FULL") }
                var value: T?
                try db.inTransaction {
                    value = try body(db)
                    return .commit
                }
                guard let value else { throw InventoryError.storage("a copy's chunk was not written") }
                return value
            }
        } catch let error as DatabaseError { throw StoreErrors.map(error) }
    }
}
