import Foundation
import GRDB
import InventoryCore
import InventoryStore

public enum OutboxState: String, Sendable, Codable {
    /// Stored here, not yet acknowledged by the server.
    case pending
    /// The server stored it; its answer is kept.
    case synced
    /// The server refused it for good (the audit ended, the user may not audit the country, …).
    case rejected
}

/// One scan a connected station made, with the outcome it showed at once.
public struct OutboxEntry: Sendable, Equatable {
    public var seq: Int64
    public var scanID: String
    public var auditID: AuditID
    public var identifier: String
    public var source: ScanSource
    public var station: String
    public var user: String
    public var scannedAt: Date
    public var localStatus: ScanStatus
    public var localMessage: String
    public var addsScanned: Bool
    public var addsUnexpected: Bool
    public var state: OutboxState
    public var attempts: Int
    public var lastError: String?
    /// The server's outcome, once it answered.
    public var serverStatus: ScanStatus?
    public var serverMessage: String?
    /// Where the station stood, when it knew.
    public var location: String?

    public init(
        scanID: String, auditID: AuditID, identifier: String, source: ScanSource, station: String, user: String,
        scannedAt: Date, localStatus: ScanStatus, localMessage: String, addsScanned: Bool, addsUnexpected: Bool,
        location: String? = nil
    ) {
        self.seq = 0
        self.scanID = scanID
        self.auditID = auditID
        self.identifier = identifier
        self.source = source
        self.station = station
        self.user = user
        self.scannedAt = scannedAt
        self.localStatus = localStatus
        self.localMessage = localMessage
        self.addsScanned = addsScanned
        self.addsUnexpected = addsUnexpected
        self.state = .pending
        self.attempts = 0
        self.location = location
    }

    init(row: Row) {
        seq = row["seq"]
        scanID = row["scan_id"]
        auditID = row["audit_id"]
        identifier = row["identifier"]
        source = ScanSource(rawValue: row["source"]) ?? .manual
        station = row["station"]
        user = row["user"]
        scannedAt = row["scanned_at"]
        localStatus = ScanStatus(rawValue: row["local_status"]) ?? .unknown
        localMessage = row["local_message"]
        addsScanned = row["adds_scanned"]
        addsUnexpected = row["adds_unexpected"]
        state = OutboxState(rawValue: row["state"]) ?? .pending
        attempts = row["attempts"]
        lastError = row["last_error"]
        serverStatus = (row["server_status"] as String?).flatMap(ScanStatus.init(rawValue:))
        serverMessage = row["server_message"]
        location = row["location"]
    }

    /// The request that sends this scan to the server; the scan_id makes a resend harmless.
    public var request: ScanRequest {
        ScanRequest(
            identifier: identifier, auditId: auditID, scanId: scanID, source: source, scannedAt: scannedAt,
            deviceName: station, user: user, location: location)
    }

    public var firstScan: FirstScan { FirstScan(scannedAt: scannedAt, station: station, user: user, source: source, location: location) }
}

/// How the outbox stands.
public struct OutboxCounts: Sendable, Equatable {
    public var pending: Int
    public var synced: Int
    public var rejected: Int
    /// Voids made while the server could not be reached, not yet sent.
    public var pendingVoids: Int = 0
    public var lastSyncAt: Date?
    public var lastError: String?
    /// The scans waiting for the server, by audit (an audit with none is not listed).
    public var pendingByAudit: [AuditID: Int] = [:]
    /// The scans the server refused, by audit (an audit with none is not listed).
    public var rejectedByAudit: [AuditID: Int] = [:]
}

/// The durable queue of scans a connected station has not yet delivered. A scan is written
/// here (one transaction, synchronous=FULL) before its outcome is shown.
public struct StationOutbox: Sendable {
    let database: AppDatabase

    /// The outbox in `database`'s file, its tables made or brought up to date (`ConnectedSchema`).
    public init(database: AppDatabase) throws {
        try ConnectedSchema.migrate(database)
        self.database = database
    }

    /// The lock that lets one process at a time send this outbox.
    public var sendLock: SendLock { SendLock(databasePath: database.writer.path) }

    /// Inserts a new scan inside the caller's transaction.
    static func insert(_ db: Database, _ entry: OutboxEntry) throws -> OutboxEntry {
        try db.cachedStatement(
            sql: """
                INSERT INTO outbox (scan_id, audit_id, identifier, source, station, user, scanned_at, local_status,
                                    local_message, adds_scanned, adds_unexpected, location)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            entry.scanID, entry.auditID, entry.identifier, entry.source.rawValue, entry.station,
            entry.user, entry.scannedAt, entry.localStatus.rawValue, entry.localMessage,
            entry.addsScanned, entry.addsUnexpected, entry.location
        ])
        var stored = entry
        stored.seq = db.lastInsertedRowID
        return stored
    }

    /// A pending scan leaves the pending state (the server answered or refused it): what it
    /// added is taken off its audit's running counts. Nothing for a scan no longer pending.
    static func settle(_ db: Database, scanID: String) throws {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT audit_id, adds_scanned, adds_unexpected FROM outbox WHERE scan_id = ? AND state = 'pending'
                        """), arguments: [scanID])
        else { return }
        let scanned: Bool = row["adds_scanned"], unexpected: Bool = row["adds_unexpected"]
        guard scanned || unexpected else { return }
        try db.cachedStatement(
            sql: """
                UPDATE replica_audits SET pending_scanned = pending_scanned - ?, pending_unexpected = pending_unexpected - ?
                WHERE id = ?
                """
        ).execute(arguments: [scanned ? 1 : 0, unexpected ? 1 : 0, row["audit_id"] as String])
    }

    public func entry(scanID: String) async throws -> OutboxEntry? {
        try await database.read { db in try Self.fetch(db, scanID: scanID) }
    }

    static func fetch(_ db: Database, scanID: String) throws -> OutboxEntry? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM outbox WHERE scan_id = ?"), arguments: [scanID]).map(OutboxEntry.init(row:))
    }

    /// Which of `scanIDs` still wait for the server (the count `counts()` gives is of the same rows).
    public func waiting(among scanIDs: [String]) async throws -> Set<String> {
        let wanted = Array(Set(scanIDs).prefix(500))
        guard !wanted.isEmpty else { return [] }
        return try await database.read { db in
            let marks = Array(repeating: "?", count: wanted.count).joined(separator: ", ")
            return Set(
                try String.fetchAll(
                    db, sql: "SELECT scan_id FROM outbox WHERE state = 'pending' AND scan_id IN (\(marks))",
                    arguments: StatementArguments(wanted)))
        }
    }

    /// The oldest pending scans, in the order they were made.
    public func pending(limit: Int = 100, auditID: AuditID? = nil) async throws -> [OutboxEntry] {
        try await database.read { db in
            if let auditID {
                return try Row.fetchAll(
                    db, sql: "SELECT * FROM outbox WHERE state = 'pending' AND audit_id = ? ORDER BY seq LIMIT ?",
                    arguments: [auditID, limit]
                ).map(OutboxEntry.init(row:))
            }
            return try Row.fetchAll(
                db, sql: "SELECT * FROM outbox WHERE state = 'pending' ORDER BY seq LIMIT ?",
                arguments: [limit]
            ).map(OutboxEntry.init(row:))
        }
    }

    /// This station's latest scans of an audit, newest first, in whatever state: what it showed
    /// of them, and the server's answer or refusal when one came.
    public func latest(auditID: AuditID, limit: Int) async throws -> [OutboxEntry] {
        try await database.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM outbox WHERE audit_id = ? ORDER BY seq DESC LIMIT ?", arguments: [auditID, limit]
            ).map(OutboxEntry.init(row:))
        }
    }

    /// A failed attempt: the scan stays pending.
    public func noteFailure(scanID: String, error: String) async throws {
        try await database.write { db in
            try db.execute(sql: "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE scan_id = ?", arguments: [error, scanID])
            try Self.setState(db, "last_error", error)
        }
    }

    /// The server refused the scan for good; it is kept, marked, and no longer sent. In the same
    /// transaction the copy forgets it: a find or an unexpected entry it made here is undone,
    /// or passes to this station's next scan of the same entry (which then adds what it added),
    /// so the station's numbers and its "already scanned" answers no longer count a scan the
    /// server's audit does not hold. `caseSensitive` is how the copy matches tags.
    public func reject(scanID: String, error: String, caseSensitive: Bool = true) async throws {
        try await database.write { db in
            if let scan = try Self.fetch(db, scanID: scanID), scan.state == .pending {
                try StationCopy.forget(db, refused: scan, caseSensitive: caseSensitive)
            }
            try Self.settle(db, scanID: scanID)
            try db.execute(
                sql: "UPDATE outbox SET state = 'rejected', attempts = attempts + 1, last_error = ? WHERE scan_id = ?",
                arguments: [error, scanID])
            // The server was reached and answered: the station is in step with it.
            try Self.setState(db, "last_sync_at", ISOTime.string(Date()))
        }
    }

    public func counts() async throws -> OutboxCounts {
        try await database.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT state, count(*) AS n FROM outbox GROUP BY state")
            let count = { (state: String) -> Int in
                guard let row = rows.first(where: { ($0["state"] as String) == state }) else { return 0 }
                return row["n"]
            }
            let lastSync = try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'last_sync_at'")
            let lastError = try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'last_error'")
            let voids = try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox_voids WHERE state = 'pending'") ?? 0
            let byAudit = try Row.fetchAll(
                db, sql: "SELECT audit_id, state, count(*) AS n FROM outbox WHERE state IN ('pending', 'rejected') GROUP BY audit_id, state")
            let counted = { (state: String) -> [AuditID: Int] in
                Dictionary(
                    uniqueKeysWithValues: byAudit.filter { ($0["state"] as String) == state }.map { ($0["audit_id"] as AuditID, $0["n"] as Int) })
            }
            return OutboxCounts(
                pending: count("pending"), synced: count("synced"), rejected: count("rejected"), pendingVoids: voids,
                lastSyncAt: lastSync.flatMap(ISOTime.parse), lastError: lastError,
                pendingByAudit: counted("pending"), rejectedByAudit: counted("rejected"))
        }
    }

    /// Every scan the server refused, for `status` to list.
    public func rejected(limit: Int = 100) async throws -> [OutboxEntry] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outbox WHERE state = 'rejected' ORDER BY seq LIMIT ?", arguments: [limit])
                .map(OutboxEntry.init(row:))
        }
    }

    static func setState(_ db: Database, _ key: String, _ value: String?) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO sync_state (key, value) VALUES (?, ?)", arguments: [key, value])
    }
}
