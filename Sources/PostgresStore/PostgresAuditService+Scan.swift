import Foundation
import InventoryCore
import PostgresNIO

extension PostgresAuditService {
    /// The checks of every store (`PreparedScan`); the time is kept to the millisecond, as
    /// SQLite keeps it, so an answer and a later read of the same scan agree on either back end.
    func prepare(_ request: ScanRequest) throws -> PreparedScan {
        var scan = try PreparedScan(request, defaultStation: defaultStation)
        scan.scannedAt = Date(timeIntervalSince1970: (scan.scannedAt.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
        return scan
    }

    /// Decides the outcome and writes the scan and the audit's counters as one statement, which
    /// commits alone; returns only after the commit. A `scan_id` seen before returns the stored
    /// outcome and counts nothing again.
    public func record(_ request: ScanRequest) async throws -> ScanResult {
        let scan = try prepare(request)
        let caseSensitive = caseSensitive, turns = database.turns
        return try await database.read { c in
            try await Self.deciding { try await Self.store(c, scan, caseSensitive: caseSensitive, turns: turns) }
        }
    }

    /// A decision made on facts that changed before its write (`ScanWrite.staleSQLState`) is
    /// made again on the facts as they are now. Each retry follows another scan's commit, so
    /// this ends; the bound is for a database that misbehaves.
    static func deciding<T>(onStale rollback: () async throws -> Void = {}, _ body: () async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do { return try await body() } catch  where ScanWrite.isStale(error) {
                guard attempt < 50 else { throw error }
                attempt += 1
                try await rollback()
            }
        }
    }

    /// Stores one scan: on its own (each statement commits alone; the write waits for its turn
    /// among this process's writes to the audit, `turns`), or inside the caller's transaction
    /// (a batch, which holds the audit's row lock from its first write anyway; no `turns`).
    ///
    /// Why the counts are exact with several servers on one database, under READ COMMITTED:
    /// the facts are read first, without a lock, and the rules decide on them. The write is
    /// one statement whose first step locks the audit's row (`FOR NO KEY UPDATE`), so the
    /// writes of one audit's scans happen one after another, each holding the lock until its
    /// commit (a statement of its own commits at once; a batch holds it to its end). Every
    /// change the write makes is conditional on the facts the decision relied on, checked
    /// against the latest committed rows (PostgreSQL re-checks an UPDATE's condition on the
    /// newest row version, and `ON CONFLICT` sees every committed key): a first find only sets
    /// an entry's first scan if it has none, a new unexpected entry is only inserted if its key
    /// is free, and the counters are added to the row as it is now. When a condition fails,
    /// another scan of the same asset committed in between: the statement raises
    /// `staleSQLState`, nothing of it is kept, and `deciding` decides again on the new facts.
    /// The facts that a decision relies on only ever change one way (an entry gains a first
    /// scan, an unexpected key gets an entry), so one re-check per fact is enough. So no two
    /// scans can both decide "first find" for one asset or both open one unexpected entry,
    /// and scans wait for the lock only for the length of one statement and its commit.
    /// (Serialisable isolation would give the same answers but abort far more often under
    /// contention: every scan of an audit updates its row.) Scans of different audits take
    /// different locks and do not wait for each other. The audit's row is always the first
    /// row a scan locks, so scans, batches and the end of an audit cannot deadlock.
    static func store(_ c: PostgresConnection, _ scan: PreparedScan, caseSensitive: Bool, turns: AuditTurns? = nil) async throws -> ScanResult {
        let auditID: AuditID
        if let named = scan.auditID {
            auditID = named
        } else {
            if let stored = try await storedScan(c, scanID: scan.scanID) { return try await replay(c, scan, stored: stored) }
            auditID = try await onlyRunningAudit(c)
        }
        guard
            let (lookup, audit) = try await PrefetchedLookup.fetch(
                c, auditID: auditID, identifier: scan.identifier, scanID: scan.scanID,
                caseSensitive: caseSensitive)
        else {
            if let stored = try await storedScan(c, scanID: scan.scanID) { return try await replay(c, scan, stored: stored) }
            throw InventoryError.notFound("audit \(auditID)")
        }
        if audit.scanStored, let stored = try await storedScan(c, scanID: scan.scanID) {
            return try await replay(c, scan, stored: stored)
        }
        var late = false
        if let endedAt = audit.endedAt {
            guard LateScans.accepts(scannedAt: scan.scannedAt, timeGiven: scan.timeGiven, endedAt: endedAt) else {
                throw InventoryError.auditEnded(auditID)
            }
            late = true
        }
        let decision = try AuditRules.decide(scan.identifier, country: audit.country, locations: audit.locations, lookup: lookup)
        if decision.status == .unknown, let accessoryID = try await PGAccessoryCounts.expected(c, auditID: auditID, tag: scan.identifier) {
            return try await countScan(c, scan, auditID: auditID, accessoryID: accessoryID, late: late)
        }
        let missingSince = try await PGMissingMark.audit(c, assetID: decision.asset?.id, status: decision.asset?.status)
        let message = AuditRules.message(
            for: decision, identifier: scan.identifier, auditCountry: audit.country, location: scan.location, missingSince: missingSince)
        let write = { try await ScanWrite.run(c, scan, decision, message: message, auditID: auditID, late: late) }
        let written = if let turns { try await turns.run(auditID, write) } else { try await write() }
        guard let row = written else {
            // Nothing was written: the scan_id was stored in between (a replay sent twice at
            // once), or the audit ended (or went) since it was read. The facts as they are now say which.
            if let stored = try await storedScan(c, scanID: scan.scanID) { return try await replay(c, scan, stored: stored) }
            throw ScanWrite.Stale()
        }
        if late, decision.unexpectedKey == nil, let asset = decision.asset {
            try await PGLastAudited.found(c, assetID: asset.id, at: scan.scannedAt)
        }
        let progress = AuditProgress(
            totalAssets: try row.get("total_assets"), scannedCount: try row.get("scanned_count"),
            unexpectedCount: try row.get("unexpected_count"), revision: try row.get("revision", as: Int?.self))
        var entry: AuditAsset?
        if decision.asset != nil, try row.get("entry_scan_count", as: Int?.self) != nil {
            let firstIsThis = try row.get("first_scan_id", as: Int64?.self) == row.get("scan_row", as: Int64.self)
            let first =
                firstIsThis
                ? FirstScan(
                    scannedAt: scan.scannedAt, station: scan.station, user: scan.user, source: scan.source, location: scan.location,
                    arrivedLateAt: late ? Date() : nil)
                : decision.firstScan
            let brief = try row.get("name", as: String?.self) == nil ? nil : try PGRows.brief(row)
            let count: Int = try row.get("entry_scan_count")
            if decision.unexpectedKey == nil {
                entry = AuditAsset(
                    asset: brief, identifier: try row.get("asset_tag"), outcome: first == nil ? .missing : .scanned,
                    firstScan: first, scanCount: count)
            } else {
                entry = AuditAsset(
                    asset: try row.get("id", as: Int64?.self) == nil ? nil : brief, identifier: try row.get("entry_identifier"),
                    outcome: .unexpected, reason: UnexpectedReason(rawValue: try row.get("entry_reason")),
                    firstScan: first, scanCount: count)
            }
        }
        var result = ScanResult(
            identifier: scan.identifier, status: decision.status, message: message, asset: entry,
            reason: decision.reason, firstScan: decision.firstScan, progress: progress, auditId: auditID, scanId: scan.scanID,
            foundLocation: scan.location, missingSinceAudit: missingSince)
        result.late = late ? true : nil
        return result
    }

    /// The running audit a scan with no audit id goes to: the only one running.
    static func onlyRunningAudit(_ c: PostgresConnection) async throws -> AuditID {
        let running = try await c.rows("SELECT \(unescaped: PGRows.sessionColumns) FROM audits WHERE ended_at IS NULL").map(PGRows.session)
        return try AuditSession.onlyRunning(among: running).id
    }
}
