import Foundation
import GRDB
import InventoryCore
import InventoryStore

/// A connected station's local copy of the audits it works on: the expected set and the
/// unexpected entries the server streamed, kept up to date with every answer the server gives
/// and with this station's own scans. The copy answers the audit rules from indexed queries
/// (`CopyLookup`), so it is never loaded into memory: a scan after a restart is as quick
/// as any other, with or without a network.
public struct StationCopy: Sendable {
    let database: AppDatabase

    /// The copy in `database`'s file, its tables made or brought up to date (`ConnectedSchema`).
    public init(database: AppDatabase) throws {
        try ConnectedSchema.migrate(database)
        self.database = database
    }

    /// The audits this station holds, as the server last described them.
    public func audits() async throws -> [AuditSession] {
        let decoder = JSONDecoder.auditStation()
        return try await database.read { db in
            try String.fetchAll(db, sql: "SELECT session FROM replica_audits").map { try Self.value(decoder, $0, as: AuditSession.self) }
        }
    }

    public func session(auditID: AuditID) async throws -> AuditSession? {
        let decoder = JSONDecoder.auditStation()
        return try await database.read { db in try Self.session(db, auditID: auditID, decoder: decoder) }
    }

    /// The audit as this station sees it: the server's last numbers plus what this station's
    /// pending scans add (running counts, not a count of the outbox).
    public func localSession(auditID: AuditID) async throws -> AuditSession? {
        let decoder = JSONDecoder.auditStation()
        return try await database.read { db in try Self.held(db, auditID: auditID, decoder: decoder)?.localSession }
    }

    /// Takes the server's newer description of an audit (its progress, or its end). With `mark`
    /// (`answerMark()` read before the description was asked for), numbers the server gave with an
    /// answer that came in meanwhile (a scan's, a void's) are newer than the description's, which
    /// was read on the server before them: the copy keeps those and takes the rest (its end).
    /// A description the copy holds already writes nothing: a kiosk asks every 2 seconds, and
    /// most answers are the same.
    public func update(_ session: AuditSession, unlessAnsweredSince mark: Int? = nil) async throws {
        let encoder = JSONEncoder.auditStation()
        let decoder = JSONDecoder.auditStation()
        try await database.write { db in
            var taken = session
            if let mark, try Self.answers(db) > mark, let stored = try Self.session(db, auditID: session.id, decoder: decoder) {
                taken.progress = stored.progress
            }
            try db.execute(
                sql: "UPDATE replica_audits SET session = ?1 WHERE id = ?2 AND session IS NOT ?1",
                arguments: [try Self.text(encoder, taken), session.id])
        }
    }

    /// How many times the copy has taken the server's numbers with an answer (a scan's, a void's):
    /// read before asking the server how an audit stands, and given to `update`.
    public func answerMark() async throws -> Int {
        try await database.read { db in try Self.answers(db) }
    }

    static func answers(_ db: Database) throws -> Int {
        try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'answers'").flatMap { Int($0) } ?? 0
    }

    /// Counts an answer whose numbers the copy took (in the caller's transaction).
    static func countAnswer(_ db: Database) throws {
        try StationOutbox.setState(db, "answers", String(try answers(db) + 1))
    }

    /// Takes the server's answer to a pushed scan, in one transaction: the scan is marked
    /// synced, the first scan the server reports is kept, and the audit's progress becomes the
    /// server's.
    public func applyServerResult(_ result: ScanResult, for entry: OutboxEntry) async throws {
        try await applyServerResults([(result, entry)])
    }

    /// Takes many answers in one transaction (a batch push): one commit, and each audit's
    /// numbers read and written once, from the last answer about it.
    public func applyServerResults(_ answers: [(result: ScanResult, entry: OutboxEntry)]) async throws {
        let encoder = JSONEncoder.auditStation()
        let decoder = JSONDecoder.auditStation()
        try await database.write { db in
            var latest: [AuditID: AuditProgress] = [:]
            var copies: [AuditID: Held?] = [:]
            for (result, entry) in answers {
                try StationOutbox.settle(db, scanID: entry.scanID)
                try db.cachedStatement(
                    sql: """
                        UPDATE outbox SET state = 'synced', attempts = attempts + 1, last_error = NULL, server_status = ?, server_message = ?, synced_at = ?
                        WHERE scan_id = ?
                        """
                ).execute(arguments: [result.status.rawValue, result.message, Date(), entry.scanID])
                if copies[result.auditId] == nil { copies[result.auditId] = try Self.held(db, auditID: result.auditId, decoder: decoder) }
                guard let copy = copies[result.auditId] ?? nil else { continue }
                try Self.take(db, result, for: entry, copy: copy, encoder: encoder)
                latest[result.auditId] = result.progress
            }
            if !answers.isEmpty {
                try StationOutbox.setState(db, "last_sync_at", ISOTime.string(Date()))
                try StationOutbox.setState(db, "last_error", nil)
            }
            if !latest.isEmpty { try Self.countAnswer(db) }
            for (auditID, progress) in latest {
                guard var session = try Self.session(db, auditID: auditID, decoder: decoder) else { continue }
                session.progress = progress
                try db.cachedStatement(sql: "UPDATE replica_audits SET session = ? WHERE id = ?")
                    .execute(arguments: [try Self.text(encoder, session), session.id])
            }
        }
    }

    /// Takes the first scan the server reports into the copy: of an expected asset, or of an
    /// unexpected entry with its asset, so a repeat is decided here from now on.
    private static func take(_ db: Database, _ result: ScanResult, for entry: OutboxEntry, copy: Held, encoder: JSONEncoder) throws {
        let first = result.firstScan ?? entry.firstScan
        switch result.status {
        case .foundExpected, .alreadyScanned:
            if let assetID = result.asset?.id {
                try db.cachedStatement(sql: "UPDATE replica_expected SET first_scan = ? WHERE ref = ? AND asset_id = ?")
                    .execute(arguments: [try text(encoder, first), copy.ref, assetID])
            }
        case .unexpected, .unknown:
            let asset = result.asset.flatMap { $0.brief(reason: result.reason, auditCountry: copy.session.country) }
            let key = result.asset?.id.map { AuditRules.unexpectedKey(assetID: $0) } ?? AuditRules.unexpectedKey(identifier: result.identifier)
            try insertUnexpected(
                db, auditID: result.auditId,
                AuditSnapshot.Unexpected(
                    key: key, identifier: result.identifier, reason: result.reason ?? .unknown, asset: asset, firstScan: first), encoder: encoder)
        case .pending, .accessoryCounted:
            // An accessory's count is the server's: the copy holds only the audit's assets.
            break
        }
    }

    /// Adds (or replaces) an unexpected entry of the copy.
    static func insertUnexpected(_ db: Database, auditID: AuditID, _ entry: AuditSnapshot.Unexpected, encoder: JSONEncoder) throws {
        let asset = entry.asset
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO replica_unexpected (audit_id, key, first_scan, identifier, reason, asset_id, asset_tag, serial_num, name,
                                                           model, status, location, company, country)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            auditID, entry.key, try text(encoder, entry.firstScan), entry.identifier, entry.reason.rawValue,
            asset?.id, asset?.assetTag, asset?.serialNum, asset?.name, asset?.model, asset?.status.rawValue,
            asset?.location, asset?.company, asset?.country
        ])
    }

    static func session(_ db: Database, auditID: AuditID, decoder: JSONDecoder) throws -> AuditSession? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT session FROM replica_audits WHERE id = ?"), arguments: [auditID])
            .map { try value(decoder, $0, as: AuditSession.self) }
    }

    /// A held copy: the server's description, its number, and what pending scans add and
    /// pending voids take away (so either running count may be below zero).
    struct Held {
        var session: AuditSession
        var ref: Int64
        var pendingScanned: Int
        var pendingUnexpected: Int

        /// The revision of the numbers shown here (this station's own scale, not the server's).
        var revision: Int

        var localSession: AuditSession {
            var local = session
            local.progress = AuditProgress(
                totalAssets: session.totalAssets,
                scannedCount: max(min(session.scannedCount + pendingScanned, session.totalAssets), 0),
                unexpectedCount: max(session.unexpectedCount + pendingUnexpected, 0), revision: revision)
            return local
        }
    }

    static func held(_ db: Database, auditID: AuditID, decoder: JSONDecoder) throws -> Held? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT session, ref, pending_scanned, pending_unexpected,
                            (SELECT revision FROM replica_revisions WHERE audit_id = replica_audits.id) AS revision
                        FROM replica_audits WHERE id = ?
                        """), arguments: [auditID]), let ref = row["ref"] as Int64?
        else { return nil }
        return Held(
            session: try value(decoder, row["session"], as: AuditSession.self), ref: ref,
            pendingScanned: row["pending_scanned"], pendingUnexpected: row["pending_unexpected"], revision: row["revision"] ?? 0)
    }

    /// The revision of an audit's numbers as this station shows them (0: never held).
    static func revision(_ db: Database, auditID: AuditID) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT revision FROM replica_revisions WHERE audit_id = ?"), arguments: [auditID]) ?? 0
    }

    static func text(_ encoder: JSONEncoder, _ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func value<T: Decodable>(_ decoder: JSONDecoder, _ text: String, as type: T.Type) throws -> T {
        try decoder.decode(type, from: Data(text.utf8))
    }
}

extension AuditAsset {
    /// The asset fields of an unexpected entry, when it names an asset. A server that leaves
    /// out the country or status (SPEC's lists have neither) gets values that give the rules
    /// the same reason: another country, or the status the reason names.
    public func brief(reason: UnexpectedReason?, auditCountry: String) -> AssetBrief? {
        guard let id, let assetTag else { return nil }
        let status = status ?? (reason == .archived ? .archived : reason == .disposed ? .disposed : .inStock)
        let country = country ?? (reason == .otherCountry ? "another country" : auditCountry)
        return AssetBrief(
            id: id, assetTag: assetTag, serialNum: serialNum, name: name ?? assetTag, model: model, status: status,
            location: location, company: company, country: country)
    }
}
