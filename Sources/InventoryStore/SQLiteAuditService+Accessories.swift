import Foundation
import GRDB
import InventoryCore

/// Accessories in an audit: a scan of an expected accessory's tag counts one at its station's
/// location, and a typed count sets the quantity there (`AccessoryTally`).
extension SQLiteAuditService {
    public func count(_ request: CountRequest) async throws -> CountResult {
        let count = try checked { try request.checked() }
        let station = count.deviceName ?? defaultStation, user = count.user ?? "unknown"
        return try await database.write { db in
            let countID = count.countId ?? UUID().uuidString.lowercased()
            if let stored = try AccessoryCounts.replay(db, countID: countID) {
                return CountResult(
                    auditId: stored.auditID, countId: countID, accessory: stored.tally, location: stored.location, countedHere: stored.here)
            }
            let audit: AuditSession
            if let auditID = count.auditId {
                audit = try AuditRows.fetchSession(db, id: auditID)
            } else {
                let running = try Row.fetchAll(db, sql: "SELECT * FROM audits WHERE ended_at IS NULL").map(AuditRows.session)
                audit = try AuditSession.onlyRunning(among: running)
            }
            guard audit.isActive else { throw InventoryError.auditEnded(audit.id) }
            guard let accessoryID = try AccessoryCounts.expected(db, auditID: audit.id, tag: count.tag) else {
                throw InventoryError.notFound("accessory with tag '\(count.tag)' in the audit of \(audit.country)")
            }
            let stored = try AccessoryCounts.store(
                db, countID: countID, auditID: audit.id, accessoryID: accessoryID, location: count.location, kind: "set",
                quantity: count.quantity, source: ScanSource.manual.rawValue, station: station, user: user, at: Date(), late: false)
            return CountResult(auditId: audit.id, countId: countID, accessory: stored.tally, location: count.location, countedHere: stored.here)
        }
    }

    public func accessories(auditID: AuditID) async throws -> [AccessoryTally] {
        try await database.read { db in
            _ = try AuditRows.fetchSession(db, id: auditID)
            return try AccessoryCounts.tallies(db, auditID: auditID)
        }
    }

    /// A scan of an accessory the audit expects, inside the scan's transaction: one more counted
    /// at the station's location.
    static func countScan(_ db: Database, _ scan: PreparedScan, audit: AuditSession, accessoryID: Int64, late: Bool) throws -> ScanResult {
        let stored = try AccessoryCounts.store(
            db, countID: scan.scanID, auditID: audit.id, accessoryID: accessoryID, location: scan.location, kind: "scan", quantity: 1,
            source: scan.source.rawValue, station: scan.station, user: scan.user, at: scan.scannedAt, late: late)
        return try accessoryAnswer(
            db, identifier: scan.identifier, scanID: scan.scanID, auditID: audit.id, tally: stored.tally, here: stored.here,
            location: scan.location, late: late)
    }

    /// The answer to a scan_id stored as an accessory's count, sent again.
    static func accessoryReplay(_ db: Database, _ scan: PreparedScan) throws -> ScanResult? {
        guard let stored = try AccessoryCounts.replay(db, countID: scan.scanID) else { return nil }
        guard scan.auditID == nil || scan.auditID == stored.auditID, stored.tally.tag == scan.identifier else {
            throw InventoryError.duplicate(field: "scan_id", value: scan.scanID)
        }
        return try accessoryAnswer(
            db, identifier: scan.identifier, scanID: scan.scanID, auditID: stored.auditID, tally: stored.tally, here: stored.here,
            location: stored.location, late: stored.late)
    }

    static func accessoryAnswer(
        _ db: Database, identifier: String, scanID: String, auditID: AuditID, tally: AccessoryTally, here: Int, location: String?, late: Bool
    ) throws -> ScanResult {
        var result = ScanResult(
            identifier: identifier, status: .accessoryCounted, message: tally.message(at: location, here: here), asset: nil, reason: nil,
            firstScan: nil, progress: try AuditRows.fetchSession(db, id: auditID).progress, auditId: auditID, scanId: scanID,
            foundLocation: location)
        result.accessory = tally
        result.late = late ? true : nil
        return result
    }
}
