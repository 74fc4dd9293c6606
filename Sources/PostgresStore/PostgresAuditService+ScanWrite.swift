import Foundation
import InventoryCore
import PostgresNIO

/// The write of one decided scan: one prepared statement, in one of four forms (a new or a
/// repeated unexpected entry, a first or a repeated find of an expected asset). It locks the
/// audit's row first, inserts the scan, updates its entry and then (only once the entry is
/// changed) the audit's counters, and returns the counters and the entry. Every change hangs off the insert, so when the scan_id is
/// already taken, or the audit has ended, nothing is changed and no row comes back. When the
/// entry's change finds the entry not as the decision saw it, the statement raises
/// `staleSQLState` and none of it is kept (see `PostgresAuditService.store`).
enum ScanWrite {
    /// The SQLSTATE of a decision made on facts that changed before its write: PostgreSQL's
    /// serialization_failure, the code clients already retry on.
    static let staleSQLState = "40001"

    /// Nothing was written and the scan_id is not stored: the facts changed.
    struct Stale: Error {}

    static func isStale(_ error: any Error) -> Bool {
        if error is Stale { return true }
        return (error as? PSQLError)?.serverInfo?[.sqlState] == staleSQLState
    }

    static func run(
        _ c: PostgresConnection, _ scan: PreparedScan, _ decision: ScanDecision, message: String,
        auditID: AuditID, late: Bool
    ) async throws -> PostgresRandomAccessRow? {
        var binds = PostgresBindings()
        binds.append(auditID) // $1
        binds.append(scan.scanID) // $2
        binds.append(scan.identifier) // $3
        binds.append(decision.asset?.id) // $4
        binds.append(decision.status.rawValue) // $5
        binds.append(decision.reason?.rawValue) // $6
        binds.append(message) // $7
        binds.append(scan.source.rawValue) // $8
        binds.append(scan.station) // $9
        binds.append(scan.user) // $10
        binds.append(scan.scannedAt) // $11
        binds.append(Date()) // $12
        binds.append(decision.addsScanned ? 1 : 0) // $13
        binds.append(decision.addsUnexpected ? 1 : 0) // $14
        guard let key = decision.unexpectedKey else {
            binds.append(scan.location) // $15
            binds.append(late) // $16
            return decision.addsScanned ? try await c.rows(FirstFind.self, binds).first : try await c.rows(FoundAgain.self, binds).first
        }
        let asset = decision.asset
        binds.append(key) // $15
        binds.append(decision.reason?.rawValue ?? "unknown") // $16
        for value in [
            asset?.assetTag, asset?.serialNum, asset?.name, asset?.model, asset?.status.rawValue,
            asset?.location, asset?.company, asset?.country
        ] { binds.append(value) } // $17…$24
        binds.append(scan.location) // $25
        binds.append(late) // $26
        return decision.addsUnexpected ? try await c.rows(NewUnexpected.self, binds).first : try await c.rows(UnexpectedAgain.self, binds).first
    }

    static let scanTypes: [PostgresDataType] = [
        .text, .text, .text, .int8, .text, .text, .text, .text, .text, .text,
        .timestamptz, .timestamptz, .int8, .int8
    ]
    static let unexpectedTypes = scanTypes + [PostgresDataType](repeating: .text, count: 11) + [.bool]
    static let expectedTypes = scanTypes + [.text, .bool]

    static let recorded = """
        asset_id AS id, asset_tag, serial_num, name, model, status, location, company, country, scan_count AS entry_scan_count, first_scan_id
        """

    /// The statement around one entry change (`entry`, which must return the entry's row).
    /// `key` is the scan's `entry_key`: the unexpected entry's key ($15), or NULL for a scan of
    /// an expected asset; `location` the placeholder of where the station stood; `late` the
    /// placeholder that says the scan goes into an ended audit (`LateScans`): the audit must be
    /// running for a scan that is not late, and ended for one that is, as the decision saw it.
    static func statement(entry: String, key: String = "NULL", location: String = "$15", late: String = "$16") -> String {
        """
        WITH locked AS (SELECT id FROM audits WHERE id = $1 AND (ended_at IS NOT NULL) = \(late) FOR NO KEY UPDATE),
        ins AS (
            INSERT INTO scans (scan_id, audit_id, identifier, asset_id, status, reason, message, source, station, user_name,
                scanned_at, recorded_at, entry_key, location, late)
            SELECT $2, $1, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, \(key), \(location), \(late) FROM locked
            ON CONFLICT (scan_id) DO NOTHING RETURNING id),
        entry AS (\(entry)),
        counted AS (
            UPDATE audits SET scanned_count = scanned_count + $13, unexpected_count = unexpected_count + $14,
                late_count = late_count + CASE WHEN \(late) THEN 1 ELSE 0 END FROM entry
            WHERE audits.id = $1 RETURNING audits.total_assets, audits.scanned_count, audits.unexpected_count, audits.revision)
        SELECT ins.id AS scan_row, counted.*, entry.*, audit_scan_checked(entry.entry_scan_count IS NOT NULL) AS checked
        FROM ins LEFT JOIN entry ON true LEFT JOIN counted ON true
        """
    }

    /// A first find: the expected entry gains its first scan, if it still has none.
    enum FirstFind: PreparedSQL {
        static let sql = statement(
            entry: """
                UPDATE audit_expected e SET first_scan_id = ins.id, scan_count = 1 FROM ins
                WHERE e.audit_id = $1 AND e.asset_id = $4 AND e.first_scan_id IS NULL RETURNING \(recorded)
                """)
        static let types = expectedTypes
    }

    /// An expected asset found again, or found by a scan whose decision saw it found: one more
    /// scan of the entry, which must have its first scan already.
    enum FoundAgain: PreparedSQL {
        static let sql = statement(
            entry: """
                UPDATE audit_expected e SET scan_count = e.scan_count + 1 FROM ins
                WHERE e.audit_id = $1 AND e.asset_id = $4 AND e.first_scan_id IS NOT NULL RETURNING \(recorded)
                """)
        static let types = expectedTypes
    }

    static let unexpectedReturning = "RETURNING \(recorded), identifier AS entry_identifier, reason AS entry_reason"

    /// A new unexpected entry, if its key is still free.
    enum NewUnexpected: PreparedSQL {
        static let sql = statement(
            entry: """
                INSERT INTO audit_unexpected (audit_id, key, identifier, asset_id, reason, first_scan_id, asset_tag, serial_num, name,
                    model, status, location, company, country)
                SELECT $1, $15, $3, $4, $16, ins.id, $17, $18, $19, $20, $21, $22, $23, $24 FROM ins
                ON CONFLICT (audit_id, key) DO NOTHING \(unexpectedReturning)
                """, key: "$15", location: "$25", late: "$26")
        static let types = unexpectedTypes
    }

    /// One more scan of an unexpected entry. An identifier recorded as unknown and registered
    /// since now names its asset, with the asset's fields as they are at this scan.
    enum UnexpectedAgain: PreparedSQL {
        static let sql: String = {
            let named = "u.asset_id IS NULL AND $4::BIGINT IS NOT NULL"
            let fields = ["asset_tag", "serial_num", "name", "model", "status", "location", "company", "country"]
            let sets = fields.enumerated().map { "\($1) = CASE WHEN \(named) THEN $\($0 + 17) ELSE u.\($1) END" }.joined(separator: ", ")
            return statement(
                entry: """
                    UPDATE audit_unexpected u SET scan_count = u.scan_count + 1, \(sets),
                        reason = CASE WHEN \(named) THEN $16 ELSE u.reason END, asset_id = COALESCE(u.asset_id, $4::BIGINT)
                    FROM ins WHERE u.audit_id = $1 AND u.key = $15 \(unexpectedReturning)
                    """, key: "$15", location: "$25", late: "$26")
        }()
        static let types = unexpectedTypes
    }
}
