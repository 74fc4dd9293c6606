import Foundation
import GRDB
import InventoryCore
import InventoryStore

/// A void this station recorded while the server could not be reached, waiting in the outbox
/// until the scan it undoes is on the server.
public struct QueuedVoid: Sendable, Equatable {
    public var seq: Int64
    public var voidID: String
    public var scanID: String
    public var auditID: AuditID
    public var reason: String?
    public var station: String
    public var user: String
    public var voidedAt: Date
    public var recordedAt: Date
    /// What the void did to the station's copy (nil when the copy had not decided the scan).
    public var effect: VoidEffect?
    /// What it took off the audit's running counts until the server answers (0 or -1).
    public var scannedDelta: Int
    public var unexpectedDelta: Int
    public var state: OutboxState
    public var attempts: Int
    public var lastError: String?

    init(row: Row) {
        seq = row["seq"]
        voidID = row["void_id"]
        scanID = row["scan_id"]
        auditID = row["audit_id"]
        reason = row["reason"]
        station = row["station"]
        user = row["user"]
        voidedAt = row["voided_at"]
        recordedAt = row["recorded_at"]
        effect = (row["effect"] as String?).flatMap(VoidEffect.init(rawValue:))
        scannedDelta = row["scanned_delta"]
        unexpectedDelta = row["unexpected_delta"]
        state = OutboxState(rawValue: row["state"]) ?? .pending
        attempts = row["attempts"]
        lastError = row["last_error"]
    }

    public var record: ScanVoid {
        ScanVoid(
            voidId: voidID, scanId: scanID, auditId: auditID, reason: reason, station: station, user: user, voidedAt: voidedAt,
            recordedAt: recordedAt)
    }
}

/// A queued void ready to go to the server, with the state of the scan it undoes.
public struct ReadyVoid: Sendable {
    public var void: QueuedVoid
    /// The server refused the scan itself, so there is nothing there to void.
    public var scanRejected: Bool
}

extension StationCopy {
    /// Records a void while the server cannot be reached, in one transaction: the void goes into
    /// the outbox (sent once its scan is on the server, with its own id, so a resend is the same
    /// void) and the copy counts as if the scan had not been made, by the rules of `VoidEffect`
    /// applied to what this station knows: its copy and its own scans. The server's answer,
    /// when it comes, replaces those numbers with its own. Only a scan this station made can be
    /// voided this way; a second void of the same scan answers as the first did.
    public func queueVoid(_ void: PreparedVoid, caseSensitive: Bool, now: Date = Date()) async throws -> VoidResult {
        let encoder = JSONEncoder.auditStation()
        let decoder = JSONDecoder.auditStation()
        return try await database.write { db in
            guard let scan = try StationOutbox.fetch(db, scanID: void.scanID) else {
                throw InventoryError.unavailable(
                    "Scan \(void.scanID) was not made at this station, and the server cannot be reached to void it; it still counts. Void it again when the server is reachable"
                )
            }
            if let auditID = void.auditID, auditID != scan.auditID {
                throw InventoryError.notFound("Scan \(void.scanID) is not a scan of audit \(auditID)")
            }
            guard let copy = try Self.held(db, auditID: scan.auditID, decoder: decoder) else {
                throw InventoryError.unavailable(
                    "This station holds no copy of audit \(scan.auditID), and the server cannot be reached; scan \(void.scanID) still counts")
            }
            guard copy.session.isActive else { throw InventoryError.auditEnded(scan.auditID) }
            if scan.state == .rejected {
                throw InventoryError.notFound(
                    "Scan \(void.scanID) was refused by the server (\(scan.lastError ?? "refused")), so it never counted; there is nothing to void")
            }
            let lookup = CopyLookup(db: db, auditID: scan.auditID, ref: copy.ref, caseSensitive: caseSensitive, decoder: decoder)
            if let stored = try Self.standingVoid(db, scanID: void.scanID, voidID: void.voidID) {
                return try Self.answer(db, stored, scan: scan, decoder: decoder)
            }
            let effect = try Self.localEffect(db, of: scan, copy: copy, lookup: lookup)
            try db.execute(
                sql: """
                    INSERT INTO outbox_voids (void_id, scan_id, audit_id, reason, station, user, voided_at, recorded_at, effect,
                                              scanned_delta, unexpected_delta)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    void.voidID, scan.scanID, scan.auditID, void.reason, void.station, void.user, void.voidedAt, now,
                    effect?.rawValue, effect?.scannedDelta ?? 0, effect?.unexpectedDelta ?? 0
                ])
            guard let stored = try Self.standingVoid(db, scanID: void.scanID, voidID: void.voidID) else {
                throw InventoryError.storage("the void of scan \(void.scanID) was not stored")
            }
            try Self.unmark(db, stored, copy: copy, lookup: lookup, encoder: encoder)
            try Self.count(db, stored, sign: 1)
            return try Self.answer(db, stored, scan: scan, decoder: decoder)
        }
    }

    /// Takes the server's answer to a queued void: it gives back what the void took off the
    /// running counts, is marked sent, and the copy follows the server (`applyVoid`).
    public func takeVoidAnswer(_ result: VoidResult, voidID: String, caseSensitive: Bool) async throws {
        let encoder = JSONEncoder.auditStation()
        let decoder = JSONDecoder.auditStation()
        try await database.write { db in
            if let queued = try Self.queuedVoid(db, voidID: voidID), queued.state == .pending {
                try Self.count(db, queued, sign: -1)
                try db.execute(
                    sql: """
                        UPDATE outbox_voids SET state = 'synced', attempts = attempts + 1, last_error = NULL, server_message = ?, synced_at = ?
                        WHERE void_id = ?
                        """, arguments: [result.message, Date(), voidID])
                try Self.applyVoid(db, result, caseSensitive: caseSensitive, encoder: encoder, decoder: decoder)
                // Another station's later scan of the asset stands on the server: the asset is
                // found there, so it is found here too (with this scan's details).
                if queued.effect == .foundUndone, result.effect == .firstPassedOn, let assetID = result.scan.assetId,
                    let copy = try Self.held(db, auditID: result.void.auditId, decoder: decoder)
                {
                    let first = FirstScan(
                        scannedAt: result.scan.scannedAt, station: result.scan.station, user: result.scan.user, source: result.scan.source)
                    try db.execute(
                        sql: "UPDATE replica_expected SET first_scan = ? WHERE ref = ? AND asset_id = ? AND first_scan IS NULL",
                        arguments: [try Self.text(encoder, first), copy.ref, assetID])
                }
            } else {
                try Self.applyVoid(db, result, caseSensitive: caseSensitive, encoder: encoder, decoder: decoder)
            }
            try StationOutbox.setState(db, "last_sync_at", ISOTime.string(Date()))
            try StationOutbox.setState(db, "last_error", nil)
        }
    }

    /// Takes the server's answer to a void sent at once: the copy's entry loses the scan as the
    /// server's did (`VoidEffect`), and the audit's numbers become the server's. A scan whose
    /// first find passed on to a later scan stays found here; only the later scan's details are
    /// not copied.
    public func applyVoid(_ result: VoidResult, caseSensitive: Bool) async throws {
        let encoder = JSONEncoder.auditStation()
        let decoder = JSONDecoder.auditStation()
        try await database.write { db in
            try Self.applyVoid(db, result, caseSensitive: caseSensitive, encoder: encoder, decoder: decoder)
        }
    }

    static func applyVoid(_ db: Database, _ result: VoidResult, caseSensitive: Bool, encoder: JSONEncoder, decoder: JSONDecoder) throws {
        guard let copy = try held(db, auditID: result.void.auditId, decoder: decoder) else { return }
        switch result.effect {
        case .foundUndone?:
            if let assetID = result.scan.assetId {
                try db.execute(
                    sql: "UPDATE replica_expected SET first_scan = NULL WHERE ref = ? AND asset_id = ?", arguments: [copy.ref, assetID])
            }
        case .unexpectedUndone?:
            let keys = [
                result.scan.assetId.map { AuditRules.unexpectedKey(assetID: $0) },
                AuditRules.unexpectedKey(identifier: Identifier.matchKey(result.scan.identifier, caseSensitive: caseSensitive))
            ].compactMap { $0 }
            for key in keys {
                try db.execute(sql: "DELETE FROM replica_unexpected WHERE audit_id = ? AND key = ?", arguments: [result.void.auditId, key])
            }
        default:
            break
        }
        var session = copy.session
        session.progress = result.progress
        try db.execute(sql: "UPDATE replica_audits SET session = ? WHERE id = ?", arguments: [try text(encoder, session), session.id])
        try countAnswer(db)
    }

    /// The server refused a queued void for good: what it took off the counts is given back.
    /// The copy's marks stay as the void left them until the copy is pulled again.
    public func rejectVoid(voidID: String, error: String) async throws {
        try await database.write { db in
            guard let queued = try Self.queuedVoid(db, voidID: voidID), queued.state == .pending else { return }
            try Self.count(db, queued, sign: -1)
            try db.execute(
                sql: "UPDATE outbox_voids SET state = 'rejected', attempts = attempts + 1, last_error = ? WHERE void_id = ?",
                arguments: [error, voidID])
        }
    }

    // MARK: the rules applied to the copy

    /// Where a scan counted in the copy: an expected asset, or an unexpected entry.
    enum Entry: Equatable {
        case expected(Int64)
        case unexpected(String)

        var isExpected: Bool {
            if case .expected = self { return true }
            return false
        }
    }

    static func entry(of scan: OutboxEntry, lookup: CopyLookup, copy: Held) throws -> (Entry, ScanDecision)? {
        let decision = try lookup.decide(scan.identifier, country: copy.session.country, locations: copy.session.locations)
        switch decision.status {
        case .foundExpected, .alreadyScanned:
            guard let asset = decision.asset else { return nil }
            return (.expected(asset.id), decision)
        case .unexpected, .unknown:
            guard let key = decision.unexpectedKey else { return nil }
            return (.unexpected(key), decision)
        case .pending, .accessoryCounted:
            return nil
        }
    }

    /// The station's other scans of the same entry that still count (neither refused nor voided),
    /// before or after `scan`, oldest first.
    static func standingScans(_ db: Database, besides scan: OutboxEntry, after: Bool, entry: Entry, lookup: CopyLookup, copy: Held) throws
        -> [OutboxEntry]
    {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT o.* FROM outbox o WHERE o.audit_id = ? AND o.seq \(after ? ">" : "<") ? AND o.state != 'rejected'
                AND NOT EXISTS (SELECT 1 FROM outbox_voids v WHERE v.scan_id = o.scan_id AND v.state != 'rejected')
                ORDER BY o.seq
                """, arguments: [scan.auditID, scan.seq]
        ).map(OutboxEntry.init(row:))
        return try rows.filter { try Self.entry(of: $0, lookup: lookup, copy: copy)?.0 == entry }
    }

    /// Two records of one scan: the wire keeps whole seconds.
    static func same(_ first: FirstScan?, _ scan: OutboxEntry) -> Bool {
        guard let first else { return false }
        return first.station == scan.station && first.user == scan.user
            && first.scannedAt.timeIntervalSince1970.rounded(.down) == scan.scannedAt.timeIntervalSince1970.rounded(.down)
    }

    /// What voiding `scan` does, from the copy and this station's scans: it was its entry's
    /// first when the copy's first scan is this one and no earlier scan of this station's
    /// stands; a later scan of this station's takes the find over.
    static func localEffect(_ db: Database, of scan: OutboxEntry, copy: Held, lookup: CopyLookup) throws -> VoidEffect? {
        guard let (entry, decision) = try entry(of: scan, lookup: lookup, copy: copy) else { return nil }
        let earlier = try standingScans(db, besides: scan, after: false, entry: entry, lookup: lookup, copy: copy)
        let later = try standingScans(db, besides: scan, after: true, entry: entry, lookup: lookup, copy: copy)
        let wasFirst = same(decision.firstScan, scan) && earlier.isEmpty
        return VoidEffect.of(expected: entry.isExpected, wasFirst: wasFirst, laterStands: !later.isEmpty)
    }

    /// Makes the copy's marks follow a void: the entry loses its find, or the next scan of
    /// this station's takes it over.
    static func unmark(_ db: Database, _ queued: QueuedVoid, copy: Held, lookup: CopyLookup, encoder: JSONEncoder) throws {
        guard let effect = queued.effect, let scan = try StationOutbox.fetch(db, scanID: queued.scanID) else { return }
        _ = try unmark(db, scan, effect: effect, copy: copy, lookup: lookup, encoder: encoder)
    }

    /// Takes `scan` off the copy's marks by `effect`; returns the scan of this station's that
    /// takes the find over, if one does.
    @discardableResult
    static func unmark(_ db: Database, _ scan: OutboxEntry, effect: VoidEffect, copy: Held, lookup: CopyLookup, encoder: JSONEncoder) throws
        -> OutboxEntry?
    {
        guard effect != .repeatRemoved, let (entry, _) = try entry(of: scan, lookup: lookup, copy: copy) else { return nil }
        let next = try standingScans(db, besides: scan, after: true, entry: entry, lookup: lookup, copy: copy).first
        let first = try next.map { try text(encoder, $0.firstScan) }
        switch (entry, effect) {
        case (.expected(let assetID), _):
            try db.execute(
                sql: "UPDATE replica_expected SET first_scan = ? WHERE ref = ? AND asset_id = ?",
                arguments: [effect == .firstPassedOn ? first : nil, copy.ref, assetID])
        case (.unexpected(let key), .firstPassedOn):
            if let first {
                try db.execute(
                    sql: "UPDATE replica_unexpected SET first_scan = ? WHERE audit_id = ? AND key = ?", arguments: [first, scan.auditID, key])
            }
        case (.unexpected(let key), _):
            try db.execute(sql: "DELETE FROM replica_unexpected WHERE audit_id = ? AND key = ?", arguments: [scan.auditID, key])
        }
        return effect == .firstPassedOn ? next : nil
    }

    /// Takes a void's deltas off the running counts (`sign` 1) or gives them back (-1).
    static func count(_ db: Database, _ queued: QueuedVoid, sign: Int) throws {
        guard queued.scannedDelta != 0 || queued.unexpectedDelta != 0 else { return }
        try db.execute(
            sql: "UPDATE replica_audits SET pending_scanned = pending_scanned + ?, pending_unexpected = pending_unexpected + ? WHERE id = ?",
            arguments: [sign * queued.scannedDelta, sign * queued.unexpectedDelta, queued.auditID])
    }

    static func queuedVoid(_ db: Database, voidID: String) throws -> QueuedVoid? {
        try Row.fetchOne(db, sql: "SELECT * FROM outbox_voids WHERE void_id = ?", arguments: [voidID]).map(QueuedVoid.init(row:))
    }

    /// The void that stands for a scan, or the one with this id.
    static func standingVoid(_ db: Database, scanID: String, voidID: String) throws -> QueuedVoid? {
        try Row.fetchOne(
            db, sql: "SELECT * FROM outbox_voids WHERE void_id = ? OR (scan_id = ? AND state != 'rejected') ORDER BY seq LIMIT 1",
            arguments: [voidID, scanID]
        ).map(QueuedVoid.init(row:))
    }

    static func pendingVoids(_ db: Database, auditID: AuditID) throws -> [QueuedVoid] {
        try Row.fetchAll(db, sql: "SELECT * FROM outbox_voids WHERE state = 'pending' AND audit_id = ? ORDER BY seq", arguments: [auditID])
            .map(QueuedVoid.init(row:))
    }

    /// The answer to a queued void, as a server would give it.
    static func answer(_ db: Database, _ queued: QueuedVoid, scan: OutboxEntry, decoder: JSONDecoder) throws -> VoidResult {
        let session = try held(db, auditID: scan.auditID, decoder: decoder)?.localSession
        let record = ScanRecord(
            unanswered: scan.request, status: scan.serverStatus ?? scan.localStatus, message: scan.serverMessage ?? scan.localMessage,
            voided: queued.record)
        var message =
            queued.effect?.message(scan: record)
            ?? "Voided the scan of '\(scan.identifier)'; the server decides what it was, and it will not count"
        if queued.state == .pending { message += ". The server gets the void when it can be reached" }
        return VoidResult(
            void: queued.record, scan: record,
            progress: session?.progress ?? AuditProgress(totalAssets: 0, scannedCount: 0, unexpectedCount: 0), message: message,
            effect: queued.effect)
    }
}

extension StationOutbox {
    /// Queued voids whose scans the server has answered (stored or refused), oldest first: a
    /// void never goes before its scan.
    public func readyVoids(limit: Int = 100) async throws -> [ReadyVoid] {
        try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT v.*, o.state AS scan_state FROM outbox_voids v JOIN outbox o ON o.scan_id = v.scan_id
                    WHERE v.state = 'pending' AND o.state != 'pending' ORDER BY v.seq LIMIT ?
                    """, arguments: [limit]
            ).map { ReadyVoid(void: QueuedVoid(row: $0), scanRejected: ($0["scan_state"] as String) == OutboxState.rejected.rawValue) }
        }
    }

    /// A failed attempt to send a void: it stays queued.
    public func noteVoidFailure(voidID: String, error: String) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE outbox_voids SET attempts = attempts + 1, last_error = ? WHERE void_id = ?", arguments: [error, voidID])
            try Self.setState(db, "last_error", error)
        }
    }

    public func queuedVoid(voidID: String) async throws -> QueuedVoid? {
        try await database.read { db in try StationCopy.queuedVoid(db, voidID: voidID) }
    }
}
