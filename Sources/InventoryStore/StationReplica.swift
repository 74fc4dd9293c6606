import Foundation
import GRDB
import InventoryCore

/// A connected station's local copy of the audits it works on: the server's snapshot, kept up
/// to date with every answer the server gives. With the outbox's pending scans on top, it
/// rebuilds the station's `AuditEngine` after a restart, even with no network.
public struct StationReplica: Sendable {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    /// Replaces the copy of the snapshot's audit.
    public func store(_ snapshot: AuditSnapshot) async throws {
        let encoder = JSONEncoder.auditStation()
        try await database.write { db in
            let id = snapshot.audit.id
            try db.execute(sql: "DELETE FROM replica_audits WHERE id = ?", arguments: [id])
            try db.execute(sql: "INSERT INTO replica_audits (id, session, pulled_at) VALUES (?, ?, ?)",
                           arguments: [id, try Self.text(encoder, snapshot.audit), Date()])
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO replica_assets (audit_id, asset_id, expected, brief, first_scan) VALUES (?, ?, ?, ?, ?)")
            for entry in snapshot.expected {
                try insert.execute(arguments: [id, entry.asset.id, true, try Self.text(encoder, entry.asset),
                                               try entry.firstScan.map { try Self.text(encoder, $0) }])
            }
            for asset in snapshot.known {
                try insert.execute(arguments: [id, asset.id, false, try Self.text(encoder, asset), nil])
            }
            let unexpected = try db.cachedStatement(sql: "INSERT OR REPLACE INTO replica_unexpected (audit_id, key, first_scan) VALUES (?, ?, ?)")
            for entry in snapshot.unexpected {
                try unexpected.execute(arguments: [id, entry.key, try Self.text(encoder, entry.firstScan)])
            }
        }
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

    /// Takes the server's newer description of an audit (its progress, or its end).
    public func update(_ session: AuditSession) async throws {
        let encoder = JSONEncoder.auditStation()
        try await database.write { db in
            try db.execute(sql: "UPDATE replica_audits SET session = ? WHERE id = ?", arguments: [try Self.text(encoder, session), session.id])
        }
    }

    /// Rebuilds the engine of an audit: the server's state, then this station's pending scans.
    public func loadEngine(auditID: AuditID, caseSensitive: Bool) async throws -> (engine: AuditEngine, session: AuditSession)? {
        let decoder = JSONDecoder.auditStation()
        return try await database.read { db in
            guard let session = try Self.session(db, auditID: auditID, decoder: decoder) else { return nil }
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM replica_assets WHERE audit_id = ? ORDER BY expected DESC, asset_id", arguments: [auditID])
            var expected: [AssetBrief] = []
            var known: [AssetBrief] = []
            var scanned: [(Int64, FirstScan)] = []
            for row in rows {
                let brief = try Self.value(decoder, row["brief"], as: AssetBrief.self)
                if row["expected"] { expected.append(brief) } else { known.append(brief) }
                if let text = row["first_scan"] as String? { scanned.append((brief.id, try Self.value(decoder, text, as: FirstScan.self))) }
            }
            var engine = AuditEngine(auditID: auditID, country: session.country, expected: expected, caseSensitive: caseSensitive)
            for asset in known { engine.addKnown(asset) }
            for (id, scan) in scanned { engine.markScanned(assetID: id, scan) }
            for row in try Row.fetchAll(db, sql: "SELECT key, first_scan FROM replica_unexpected WHERE audit_id = ?", arguments: [auditID]) {
                engine.markUnexpected(key: row["key"], try Self.value(decoder, row["first_scan"], as: FirstScan.self))
            }
            let pending = try Row.fetchAll(db, sql: "SELECT * FROM outbox WHERE state = 'pending' AND audit_id = ? ORDER BY seq", arguments: [auditID])
            for entry in pending.map(OutboxEntry.init(row:)) { engine.scan(entry.identifier, entry.firstScan) }
            return (engine, session)
        }
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
            for (result, entry) in answers {
                try Self.apply(db, result, for: entry, encoder: encoder)
                latest[result.auditId] = result.progress
            }
            if !answers.isEmpty {
                try StationOutbox.setState(db, "last_sync_at", ISOTime.string(Date()))
                try StationOutbox.setState(db, "last_error", nil)
            }
            for (auditID, progress) in latest {
                guard var session = try Self.session(db, auditID: auditID, decoder: decoder) else { continue }
                session.totalAssets = progress.totalAssets; session.scannedCount = progress.scannedCount
                session.missingCount = progress.missingCount; session.unexpectedCount = progress.unexpectedCount
                session.completionPercentage = progress.completionPercentage
                try db.cachedStatement(sql: "UPDATE replica_audits SET session = ? WHERE id = ?")
                    .execute(arguments: [try Self.text(encoder, session), session.id])
            }
        }
    }

    /// Marks one scan synced and takes its first scan into the local copy.
    private static func apply(_ db: Database, _ result: ScanResult, for entry: OutboxEntry, encoder: JSONEncoder) throws {
        try db.cachedStatement(sql: """
            UPDATE outbox SET state = 'synced', attempts = attempts + 1, last_error = NULL, server_status = ?, server_message = ?, synced_at = ?
            WHERE scan_id = ?
            """).execute(arguments: [result.status.rawValue, result.message, Date(), entry.scanID])
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM replica_audits WHERE id = ?"), arguments: [result.auditId]) == true else {
            return
        }
        let first = try Self.text(encoder, result.firstScan ?? entry.firstScan)
        switch result.status {
        case .foundExpected, .alreadyScanned:
            if let assetID = result.asset?.id {
                try db.cachedStatement(sql: "UPDATE replica_assets SET first_scan = ? WHERE audit_id = ? AND asset_id = ? AND expected")
                    .execute(arguments: [first, result.auditId, assetID])
            }
        case .unexpected, .unknown:
            let key = result.asset?.id.map { AuditRules.unexpectedKey(assetID: $0) } ?? AuditRules.unexpectedKey(identifier: result.identifier)
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO replica_unexpected (audit_id, key, first_scan) VALUES (?, ?, ?)")
                .execute(arguments: [result.auditId, key, first])
        }
    }

    static func session(_ db: Database, auditID: AuditID, decoder: JSONDecoder) throws -> AuditSession? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT session FROM replica_audits WHERE id = ?"), arguments: [auditID])
            .map { try value(decoder, $0, as: AuditSession.self) }
    }

    static func text(_ encoder: JSONEncoder, _ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func value<T: Decodable>(_ decoder: JSONDecoder, _ text: String, as type: T.Type) throws -> T {
        try decoder.decode(type, from: Data(text.utf8))
    }
}
