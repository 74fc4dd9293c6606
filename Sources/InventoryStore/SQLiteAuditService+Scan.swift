import Foundation
import GRDB
import InventoryCore

extension SQLiteAuditService {
    func prepare(_ request: ScanRequest) throws -> PreparedScan {
        try PreparedScan(request, defaultStation: defaultStation)
    }

    /// Decides the outcome and writes the scan and the audit's counters in one transaction;
    /// returns only after the commit. A `scan_id` seen before returns the stored outcome and
    /// counts nothing again.
    public func record(_ request: ScanRequest) async throws -> ScanResult {
        let scan = try prepare(request)
        let caseSensitive = caseSensitive
        return try await database.write { db in try Self.store(db, scan, caseSensitive: caseSensitive) }
    }

    /// Stores one scan inside the caller's transaction.
    static func store(_ db: Database, _ scan: PreparedScan, caseSensitive: Bool) throws -> ScanResult {
        let station = scan.station, user = scan.user, source = scan.source, scannedAt = scan.scannedAt
        if let stored = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM scans WHERE scan_id = ?"), arguments: [scan.scanID]) {
            // A replay answers only for the same identifier in the same audit: the caller was
            // checked for this audit, not for the one another scan_id may belong to.
            guard stored["identifier"] as String == scan.identifier,
                scan.auditID == nil || stored["audit_id"] as String == scan.auditID
            else {
                throw InventoryError.duplicate(field: "scan_id", value: scan.scanID)
            }
            return try Self.replay(db, stored: stored)
        }
        if let counted = try Self.accessoryReplay(db, scan) { return counted }
        let (audit, late) = try Self.auditForScan(db, auditID: scan.auditID, scannedAt: scannedAt, timeGiven: scan.timeGiven)
        let lookup = SQLAuditLookup(db: db, auditID: audit.id, caseSensitive: caseSensitive)
        let decision = try AuditRules.decide(scan.identifier, country: audit.country, locations: audit.locations, lookup: lookup)
        if decision.status == .unknown, let accessoryID = try AccessoryCounts.expected(db, auditID: audit.id, tag: scan.identifier) {
            return try Self.countScan(db, scan, audit: audit, accessoryID: accessoryID, late: late)
        }
        let missingSince = try MissingMark.audit(db, assetID: decision.asset?.id, status: decision.asset?.status)
        let message = AuditRules.message(
            for: decision, identifier: scan.identifier, auditCountry: audit.country, location: scan.location, missingSince: missingSince)
        try db.cachedStatement(
            sql: """
                INSERT INTO scans (scan_id, audit_id, identifier, asset_id, status, reason, message, source, station, user, scanned_at,
                    recorded_at, entry_key, location, late)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            scan.scanID, audit.id, scan.identifier, decision.asset?.id, decision.status.rawValue,
            decision.reason?.rawValue, message, source.rawValue, station, user, scannedAt, Date(), decision.unexpectedKey, scan.location,
            late
        ])
        let rowID = db.lastInsertedRowID
        try Self.count(db, decision, auditID: audit.id, identifier: scan.identifier, scanRowID: rowID)
        if late {
            try db.cachedStatement(sql: "UPDATE audits SET late_count = late_count + 1 WHERE id = ?").execute(arguments: [audit.id])
            if decision.unexpectedKey == nil, let asset = decision.asset { try LastAudited.found(db, assetID: asset.id, at: scannedAt) }
        }
        let progress = try AuditRows.fetchSession(db, id: audit.id).progress
        let entry = try decision.asset.flatMap { try Self.entry(db, auditID: audit.id, assetID: $0.id, expected: decision.unexpectedKey == nil) }
        var result = ScanResult(
            identifier: scan.identifier, status: decision.status, message: message, asset: entry,
            reason: decision.reason, firstScan: decision.firstScan, progress: progress,
            auditId: audit.id, scanId: scan.scanID, foundLocation: scan.location, missingSinceAudit: missingSince)
        result.late = late ? true : nil
        return result
    }

    /// The audit a scan goes to: the one named, or the only one running. A named audit that has
    /// ended takes a scan made before its end (`LateScans`), which is then late.
    static func auditForScan(_ db: Database, auditID: AuditID?, scannedAt: Date, timeGiven: Bool) throws -> (audit: AuditSession, late: Bool) {
        if let auditID {
            let audit = try AuditRows.fetchSession(db, id: auditID)
            if let endedAt = audit.endedAt {
                guard LateScans.accepts(scannedAt: scannedAt, timeGiven: timeGiven, endedAt: endedAt) else {
                    throw InventoryError.auditEnded(auditID)
                }
                return (audit, true)
            }
            return (audit, false)
        }
        let running = try Row.fetchAll(db, sql: "SELECT * FROM audits WHERE ended_at IS NULL").map(AuditRows.session)
        return (try AuditSession.onlyRunning(among: running), false)
    }

    /// Updates the expected or unexpected entry and the audit's counters for one stored scan.
    static func count(_ db: Database, _ decision: ScanDecision, auditID: AuditID, identifier: String, scanRowID: Int64) throws {
        if let key = decision.unexpectedKey {
            if decision.addsUnexpected {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO audit_unexpected (audit_id, key, identifier, asset_id, reason, first_scan_id, asset_tag, \(AuditRows.recordedFields))
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """
                ).execute(
                    arguments: [auditID, key, identifier, decision.asset?.id, decision.reason?.rawValue ?? "unknown", scanRowID]
                        + AuditRows.recordedValues(decision.asset))
                try db.cachedStatement(sql: "UPDATE audits SET unexpected_count = unexpected_count + 1 WHERE id = ?").execute(arguments: [auditID])
            } else {
                // An identifier recorded as unknown and registered since now names its asset,
                // with the asset's fields as they are at this scan.
                if let asset = decision.asset {
                    try db.cachedStatement(
                        sql: """
                            UPDATE audit_unexpected SET asset_tag = ?, serial_num = ?, name = ?, model = ?, status = ?, location = ?,
                                company = ?, country = ?, asset_id = ?, reason = ?
                            WHERE audit_id = ? AND key = ? AND asset_id IS NULL
                            """
                    ).execute(arguments: AuditRows.recordedValues(asset) + [asset.id, decision.reason?.rawValue ?? "unknown", auditID, key])
                }
                try db.cachedStatement(sql: "UPDATE audit_unexpected SET scan_count = scan_count + 1 WHERE audit_id = ? AND key = ?")
                    .execute(arguments: [auditID, key])
            }
        } else if let asset = decision.asset {
            if decision.addsScanned {
                try db.cachedStatement(
                    sql: "UPDATE audit_expected SET first_scan_id = ?, scan_count = 1 WHERE audit_id = ? AND asset_id = ? AND first_scan_id IS NULL"
                )
                .execute(arguments: [scanRowID, auditID, asset.id])
                try db.cachedStatement(sql: "UPDATE audits SET scanned_count = scanned_count + 1 WHERE id = ?").execute(arguments: [auditID])
            } else {
                try db.cachedStatement(sql: "UPDATE audit_expected SET scan_count = scan_count + 1 WHERE audit_id = ? AND asset_id = ?")
                    .execute(arguments: [auditID, asset.id])
            }
        }
    }

    /// The outcome of a scan stored earlier, with the audit's progress now.
    static func replay(_ db: Database, stored: Row) throws -> ScanResult {
        let auditID: AuditID = stored["audit_id"]
        let status = ScanStatus(rawValue: stored["status"]) ?? .unknown
        let reason = (stored["reason"] as String?).flatMap(UnexpectedReason.init(rawValue:))
        let entry = try (stored["asset_id"] as Int64?).flatMap { try Self.entry(db, auditID: auditID, assetID: $0, expected: reason == nil) }
        var firstScan: FirstScan?
        let storedID: Int64 = stored["id"]
        if status != .foundExpected {
            let firstRowID = try Int64.fetchOne(
                db,
                sql: """
                    SELECT min(id) FROM scans WHERE audit_id = ? AND status = ? AND (asset_id = ? OR (asset_id IS NULL AND identifier = ?))
                    """,
                arguments: [
                    auditID, status == .alreadyScanned ? "found_expected" : status.rawValue,
                    stored["asset_id"] as Int64?, stored["identifier"] as String
                ])
            if let firstRowID, firstRowID != storedID,
                let row = try Row.fetchOne(db, sql: "SELECT \(AuditRows.firstScanColumns) FROM scans s WHERE s.id = ?", arguments: [firstRowID])
            {
                firstScan = AuditRows.firstScan(row)
            }
        }
        var result = ScanResult(
            identifier: stored["identifier"], status: status, message: stored["message"], asset: entry,
            reason: reason, firstScan: firstScan,
            progress: try AuditRows.fetchSession(db, id: auditID).progress, auditId: auditID, scanId: stored["scan_id"],
            foundLocation: stored["location"], missingSinceAudit: try MissingMark.audit(db, assetID: entry?.id, status: entry?.status))
        result.late = (stored["late"] as Bool?) == true ? true : nil
        return result
    }

    /// A known asset's entry in the audit's lists, as `details` shows it.
    static func entry(_ db: Database, auditID: AuditID, assetID: Int64, expected: Bool) throws -> AuditAsset? {
        if expected {
            return try Row.fetchOne(db.cachedStatement(sql: AuditRows.expectedSQL + " AND e.asset_id = ?"), arguments: [auditID, assetID])
                .map(AuditRows.expectedEntry)
        }
        return try Row.fetchOne(db.cachedStatement(sql: AuditRows.unexpectedSQL + " AND u.asset_id = ?"), arguments: [auditID, assetID])
            .map(AuditRows.unexpectedEntry)
    }
}
