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

    /// Decides the outcome and writes the scan and the audit's counters in one transaction;
    /// returns only after the commit. A `scan_id` seen before returns the stored outcome and
    /// counts nothing again.
    public func record(_ request: ScanRequest) async throws -> ScanResult {
        let scan = try prepare(request)
        let caseSensitive = caseSensitive
        return try await database.transaction { c in try await Self.store(c, scan, caseSensitive: caseSensitive) }
    }

    /// Stores one scan inside the caller's READ COMMITTED transaction.
    ///
    /// Why the counts are exact with several servers on one database: the first statement locks
    /// the audit's row (`FOR UPDATE`), and every scan of that audit takes the same lock, so the
    /// scans of one audit are stored one after another, each holding the lock until its commit.
    /// The lookup is a later statement, and under READ COMMITTED each statement reads a new
    /// snapshot, so it sees every scan committed before the lock was granted: no two scans can
    /// both decide "first find" for one asset, or both open one unexpected entry, and the
    /// counters are only ever changed under the lock. (Serialisable isolation would give the
    /// same answers but abort and retry under contention; the lock makes scans wait instead.)
    /// Scans of different audits take different locks and do not wait for each other.
    static func store(_ c: PostgresConnection, _ scan: PreparedScan, caseSensitive: Bool) async throws -> ScanResult {
        let auditID: AuditID
        if let named = scan.auditID {
            auditID = named
        } else {
            if let stored = try await storedScan(c, scanID: scan.scanID) { return try await replay(c, scan, stored: stored) }
            auditID = try await onlyRunningAudit(c)
        }
        guard let audit = try await c.row("""
            SELECT a.country, a.ended_at, (SELECT s.id FROM scans s WHERE s.scan_id = \(scan.scanID)) AS stored
            FROM audits a WHERE a.id = \(auditID) FOR UPDATE OF a
            """) else {
            if let stored = try await storedScan(c, scanID: scan.scanID) { return try await replay(c, scan, stored: stored) }
            throw InventoryError.notFound("audit \(auditID)")
        }
        if try audit.get("stored", as: Int64?.self) != nil, let stored = try await storedScan(c, scanID: scan.scanID) {
            return try await replay(c, scan, stored: stored)
        }
        guard try audit.get("ended_at", as: Date?.self) == nil else { throw InventoryError.auditEnded(auditID) }
        let country: String = try audit.get("country")
        let lookup = try await PrefetchedLookup.fetch(c, auditID: auditID, identifier: scan.identifier, caseSensitive: caseSensitive)
        let decision = try AuditRules.decide(scan.identifier, country: country, lookup: lookup)
        let message = AuditRules.message(for: decision, identifier: scan.identifier, auditCountry: country)
        guard let row = try await c.row(write(scan, decision, message: message, auditID: auditID)) else {
            // The scan_id was stored by a transaction that committed after this one's lookup
            // (a replay sent twice at once): answer as a replay.
            guard let stored = try await storedScan(c, scanID: scan.scanID) else {
                throw InventoryError.storage("the scan \(scan.scanID) was neither stored nor found")
            }
            return try await replay(c, scan, stored: stored)
        }
        let progress = AuditProgress(totalAssets: try row.get("total_assets"), scannedCount: try row.get("scanned_count"),
                                     unexpectedCount: try row.get("unexpected_count"))
        var entry: AuditAsset?
        if decision.asset != nil, try row.get("entry_scan_count", as: Int?.self) != nil {
            let firstIsThis = try row.get("first_scan_id", as: Int64?.self) == row.get("scan_row", as: Int64.self)
            let first = firstIsThis ? FirstScan(scannedAt: scan.scannedAt, station: scan.station, user: scan.user, source: scan.source)
                : decision.firstScan
            let brief = try row.get("name", as: String?.self) == nil ? nil : try PGRows.brief(row)
            let count: Int = try row.get("entry_scan_count")
            if decision.unexpectedKey == nil {
                entry = AuditAsset(asset: brief, identifier: try row.get("asset_tag"), outcome: first == nil ? .missing : .scanned,
                                   firstScan: first, scanCount: count)
            } else {
                entry = AuditAsset(asset: try row.get("id", as: Int64?.self) == nil ? nil : brief, identifier: try row.get("entry_identifier"),
                                   outcome: .unexpected, reason: UnexpectedReason(rawValue: try row.get("entry_reason")),
                                   firstScan: first, scanCount: count)
            }
        }
        return ScanResult(identifier: scan.identifier, status: decision.status, message: message, asset: entry,
                          reason: decision.reason, firstScan: decision.firstScan, progress: progress, auditId: auditID, scanId: scan.scanID)
    }

    /// One statement that inserts the scan, updates its expected or unexpected entry and the
    /// audit's counters, and returns the counters and the entry. Every change hangs off the
    /// insert, so when the scan_id is already taken nothing is changed and no row comes back.
    static func write(_ scan: PreparedScan, _ decision: ScanDecision, message: String, auditID: AuditID) -> PostgresQuery {
        var binds = PostgresBindings()
        binds.append(auditID)                                  // $1
        binds.append(scan.scanID)                              // $2
        binds.append(scan.identifier)                          // $3
        binds.append(decision.asset?.id)                       // $4
        binds.append(decision.status.rawValue)                 // $5
        binds.append(decision.reason?.rawValue)                // $6
        binds.append(message)                                  // $7
        binds.append(scan.source.rawValue)                     // $8
        binds.append(scan.station)                             // $9
        binds.append(scan.user)                                // $10
        binds.append(scan.scannedAt)                           // $11
        binds.append(Date())                                   // $12
        binds.append(decision.addsScanned ? 1 : 0)             // $13
        binds.append(decision.addsUnexpected ? 1 : 0)          // $14
        let asset = decision.asset
        let recorded = "asset_id AS id, asset_tag, serial_num, name, model, status, location, company, country, scan_count AS entry_scan_count, first_scan_id"
        let entrySQL: String
        if let key = decision.unexpectedKey {
            binds.append(key)                                  // $15
            binds.append(decision.reason?.rawValue ?? "unknown") // $16
            for value in [asset?.assetTag, asset?.serialNum, asset?.name, asset?.model, asset?.status.rawValue,
                          asset?.location, asset?.company, asset?.country] { binds.append(value) }  // $17…$24
            let returning = "RETURNING \(recorded), identifier AS entry_identifier, reason AS entry_reason"
            if decision.addsUnexpected {
                entrySQL = """
                    INSERT INTO audit_unexpected (audit_id, key, identifier, asset_id, reason, first_scan_id, asset_tag, serial_num, name,
                        model, status, location, company, country)
                    SELECT $1, $15, $3, $4::BIGINT, $16, ins.id, $17, $18, $19, $20, $21, $22, $23, $24 FROM ins \(returning)
                    """
            } else {
                // An identifier recorded as unknown and registered since now names its asset,
                // with the asset's fields as they are at this scan.
                let named = "u.asset_id IS NULL AND $4::BIGINT IS NOT NULL"
                let fields = ["asset_tag", "serial_num", "name", "model", "status", "location", "company", "country"]
                let sets = fields.enumerated().map { "\($1) = CASE WHEN \(named) THEN $\($0 + 17) ELSE u.\($1) END" }.joined(separator: ", ")
                entrySQL = """
                    UPDATE audit_unexpected u SET scan_count = u.scan_count + 1, \(sets),
                        reason = CASE WHEN \(named) THEN $16 ELSE u.reason END, asset_id = COALESCE(u.asset_id, $4::BIGINT)
                    FROM ins WHERE u.audit_id = $1 AND u.key = $15 \(returning)
                    """
            }
        } else if decision.addsScanned {
            entrySQL = """
                UPDATE audit_expected e SET first_scan_id = ins.id, scan_count = 1 FROM ins
                WHERE e.audit_id = $1 AND e.asset_id = $4::BIGINT AND e.first_scan_id IS NULL RETURNING \(recorded)
                """
        } else {
            entrySQL = """
                UPDATE audit_expected e SET scan_count = e.scan_count + 1 FROM ins
                WHERE e.audit_id = $1 AND e.asset_id = $4::BIGINT RETURNING \(recorded)
                """
        }
        let sql = """
            WITH ins AS (
                INSERT INTO scans (scan_id, audit_id, identifier, asset_id, status, reason, message, source, station, user_name,
                    scanned_at, recorded_at)
                VALUES ($2, $1, $3, $4::BIGINT, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (scan_id) DO NOTHING RETURNING id),
            entry AS (\(entrySQL)),
            counted AS (
                UPDATE audits SET scanned_count = scanned_count + $13, unexpected_count = unexpected_count + $14 FROM ins
                WHERE audits.id = $1 RETURNING audits.total_assets, audits.scanned_count, audits.unexpected_count)
            SELECT ins.id AS scan_row, counted.*, entry.* FROM ins CROSS JOIN counted LEFT JOIN entry ON true
            """
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// The running audit a scan with no audit id goes to: the only one running.
    static func onlyRunningAudit(_ c: PostgresConnection) async throws -> AuditID {
        let running = try await c.rows("SELECT id, country FROM audits WHERE ended_at IS NULL")
        switch running.count {
        case 0: throw InventoryError.noActiveAudit(country: nil)
        case 1: return try running[0].get("id")
        default: throw InventoryError.ambiguousAudit(countries: try running.map { try $0.get("country", as: String.self) }.sorted())
        }
    }
}
