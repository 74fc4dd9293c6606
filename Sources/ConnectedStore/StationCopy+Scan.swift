import Foundation
import GRDB
import InventoryCore
import InventoryStore

/// Answers the audit rules' questions from a station's copy of one audit with indexed queries:
/// the expected set by tag, then by serial number (exact matches first when tags fold case),
/// and the unexpected entries with their assets. Nothing else of the inventory is held, so an
/// identifier it does not know is left for the server (`ScanStatus.pending`).
struct CopyLookup: AuditLookup {
    let db: Database
    let auditID: AuditID
    let ref: Int64
    let caseSensitive: Bool
    let decoder: JSONDecoder

    /// Narrows with the NOCASE index, then compares exactly when matching is case-sensitive.
    private func match(_ column: String) -> String {
        caseSensitive ? "\(column) = ? COLLATE NOCASE AND \(column) = ?" : "\(column) = ? COLLATE NOCASE"
    }

    private func order(_ column: String) -> String { caseSensitive ? "" : "\(column) = ? DESC, " }

    private func arguments(_ head: StatementArguments, _ identifier: String) -> StatementArguments {
        head + [identifier, identifier]
    }

    func expected(matching identifier: String) throws -> (asset: AssetBrief, firstScan: FirstScan?)? {
        for column in ["asset_tag", "serial_num"] {
            let statement = try db.cachedStatement(
                sql: """
                    SELECT asset_id AS id, asset_tag, serial_num, name, model, status, location, company, country, first_scan
                    FROM replica_expected WHERE ref = ? AND \(match(column)) ORDER BY \(order(column))asset_id LIMIT 1
                    """)
            if let row = try Row.fetchOne(statement, arguments: arguments([ref], identifier)) {
                return (AssetBrief(row: row), try (row["first_scan"] as String?).map { try StationCopy.value(decoder, $0, as: FirstScan.self) })
            }
        }
        return nil
    }

    func knownAsset(matching identifier: String) throws -> AssetBrief? {
        for column in ["asset_tag", "serial_num"] {
            let statement = try db.cachedStatement(
                sql: """
                    SELECT asset_id AS id, asset_tag, serial_num, name, model, status, location, company, country FROM replica_unexpected
                    WHERE audit_id = ? AND asset_id IS NOT NULL AND \(match(column)) ORDER BY \(order(column))asset_id LIMIT 1
                    """)
            if let row = try Row.fetchOne(statement, arguments: arguments([auditID], identifier)),
                (row["name"] as String?) != nil, (row["status"] as String?) != nil, (row["country"] as String?) != nil
            {
                return AssetBrief(row: row)
            }
        }
        return nil
    }

    func unexpectedFirstScan(key: String) throws -> FirstScan? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT first_scan FROM replica_unexpected WHERE audit_id = ? AND key = ?"),
            arguments: [auditID, key]
        ).map { try StationCopy.value(decoder, $0, as: FirstScan.self) }
    }

    /// The rules' decision, with an identifier the copy does not know at all left pending.
    func decide(_ identifier: String, country: String, locations: [String]?) throws -> ScanDecision {
        let decision = try AuditRules.decide(identifier, country: country, locations: locations, lookup: self)
        guard decision.status == .unknown, decision.firstScan == nil else { return decision }
        return ScanDecision(status: .pending, asset: nil, reason: nil, firstScan: nil, unexpectedKey: nil)
    }
}

/// A scan a connected station decided from its copy, stored in its outbox.
public struct LocalScan: Sendable {
    public var entry: OutboxEntry
    public var decision: ScanDecision
    /// The audit as this station sees it after the scan.
    public var session: AuditSession
}

extension StationCopy {
    /// Decides a scan from the copy and stores it, in one transaction: the outbox entry, the
    /// copy's mark (a first scan, a new unexpected entry) and the running count of what pending
    /// scans add. Returns nil when the station holds no copy of the audit. A `scan_id` stored
    /// before answers with that scan and stores nothing.
    public func record(_ scan: OutboxEntry, caseSensitive: Bool) async throws -> LocalScan? {
        let encoder = JSONEncoder.auditStation()
        let decoder = JSONDecoder.auditStation()
        return try await database.write { db in
            guard let copy = try Self.held(db, auditID: scan.auditID, decoder: decoder) else { return nil }
            // An ended audit still takes a scan made before its end (it arrives late: `LateScans`).
            guard copy.session.isActive || copy.session.endedAt.map({ scan.scannedAt <= $0 }) == true else {
                throw InventoryError.auditEnded(scan.auditID)
            }
            let lookup = CopyLookup(db: db, auditID: scan.auditID, ref: copy.ref, caseSensitive: caseSensitive, decoder: decoder)
            if let stored = try StationOutbox.fetch(db, scanID: scan.scanID) {
                return LocalScan(
                    entry: stored, decision: try lookup.decide(stored.identifier, country: copy.session.country, locations: copy.session.locations),
                    session: copy.localSession)
            }
            let decision = try lookup.decide(scan.identifier, country: copy.session.country, locations: copy.session.locations)
            var entry = scan
            entry.localStatus = decision.status
            entry.localMessage = AuditRules.message(
                for: decision, identifier: scan.identifier, auditCountry: copy.session.country, location: scan.location)
            entry.addsScanned = decision.addsScanned
            entry.addsUnexpected = decision.addsUnexpected
            entry = try StationOutbox.insert(db, entry)
            try Self.mark(db, decision, entry: entry, copy: copy, encoder: encoder)
            var after = copy
            after.pendingScanned += decision.addsScanned ? 1 : 0
            after.pendingUnexpected += decision.addsUnexpected ? 1 : 0
            after.revision = try Self.revision(db, auditID: scan.auditID)
            return LocalScan(entry: entry, decision: decision, session: after.localSession)
        }
    }

    /// Marks a locally decided scan in the copy and, with `count`, counts what it adds.
    static func mark(
        _ db: Database, _ decision: ScanDecision, entry: OutboxEntry, copy: Held, encoder: JSONEncoder,
        count: Bool = true
    ) throws {
        if decision.addsScanned, let asset = decision.asset {
            try db.cachedStatement(sql: "UPDATE replica_expected SET first_scan = ? WHERE ref = ? AND asset_id = ?")
                .execute(arguments: [try text(encoder, entry.firstScan), copy.ref, asset.id])
        }
        if decision.addsUnexpected, let key = decision.unexpectedKey {
            try insertUnexpected(
                db, auditID: entry.auditID,
                AuditSnapshot.Unexpected(
                    key: key, identifier: entry.identifier, reason: decision.reason ?? .unknown, asset: decision.asset,
                    firstScan: entry.firstScan), encoder: encoder)
        }
        if count, decision.addsScanned || decision.addsUnexpected {
            try db.cachedStatement(
                sql: """
                    UPDATE replica_audits SET pending_scanned = pending_scanned + ?, pending_unexpected = pending_unexpected + ? WHERE id = ?
                    """
            ).execute(arguments: [decision.addsScanned ? 1 : 0, decision.addsUnexpected ? 1 : 0, entry.auditID])
        }
    }

    /// Undoes in the copy what a pending scan the server refused made there (`StationOutbox.reject`
    /// calls it before the scan is settled): judged as a void of it would be (`localEffect`), so
    /// the entry loses the find, or this station's next standing scan of it takes the find over
    /// together with what the refused scan added to the running counts.
    static func forget(_ db: Database, refused scan: OutboxEntry, caseSensitive: Bool) throws {
        let decoder = JSONDecoder.auditStation()
        guard let copy = try held(db, auditID: scan.auditID, decoder: decoder) else { return }
        let lookup = CopyLookup(db: db, auditID: scan.auditID, ref: copy.ref, caseSensitive: caseSensitive, decoder: decoder)
        guard let effect = try localEffect(db, of: scan, copy: copy, lookup: lookup),
            let next = try unmark(db, scan, effect: effect, copy: copy, lookup: lookup, encoder: JSONEncoder.auditStation()),
            next.state == .pending, scan.addsScanned || scan.addsUnexpected
        else { return }
        try db.execute(
            sql: "UPDATE outbox SET adds_scanned = ?, adds_unexpected = ? WHERE scan_id = ?",
            arguments: [scan.addsScanned, scan.addsUnexpected, next.scanID])
        try db.execute(
            sql: "UPDATE replica_audits SET pending_scanned = pending_scanned + ?, pending_unexpected = pending_unexpected + ? WHERE id = ?",
            arguments: [scan.addsScanned ? 1 : 0, scan.addsUnexpected ? 1 : 0, scan.auditID])
    }

    /// The decision the copy gives now for a stored scan (its asset and first scan), read only.
    public func decision(for entry: OutboxEntry, caseSensitive: Bool) async throws -> ScanDecision? {
        let decoder = JSONDecoder.auditStation()
        return try await database.read { db in
            guard let copy = try Self.held(db, auditID: entry.auditID, decoder: decoder) else { return nil }
            return try CopyLookup(db: db, auditID: entry.auditID, ref: copy.ref, caseSensitive: caseSensitive, decoder: decoder)
                .decide(entry.identifier, country: copy.session.country, locations: copy.session.locations)
        }
    }
}

extension StationCopy {
    /// An expected asset's tag or serial number that `identifier` matches except for case (a
    /// gun's tag typed with Caps Lock on), from the copy's NOCASE indexes; nil when none does, or
    /// when the copy is not held.
    public func caseHint(_ identifier: String, auditID: AuditID) async throws -> String? {
        let decoder = JSONDecoder.auditStation()
        return try await database.read { db in
            guard let copy = try Self.held(db, auditID: auditID, decoder: decoder) else { return nil }
            for column in ["asset_tag", "serial_num"] {
                let statement = try db.cachedStatement(
                    sql: "SELECT \(column) FROM replica_expected WHERE ref = ? AND \(column) = ? COLLATE NOCASE AND \(column) != ? LIMIT 1")
                if let match = try String.fetchOne(statement, arguments: [copy.ref, identifier, identifier]) { return match }
            }
            return nil
        }
    }
}
