import Foundation
import GRDB
import InventoryCore

extension StationCopy {
    /// The audit as this station sees it (the server's last numbers and its own pending scans)
    /// with the copy's expected assets by registered location, in one read. Finds the copy does
    /// not know yet (other stations' since it was pulled) are counted in `foundElsewhere`, so
    /// the locations add up to the audit's numbers. Nil when the station holds no copy.
    public func locationProgress(auditID: AuditID) async throws -> LocationProgress? {
        let decoder = JSONDecoder.auditStation()
        return try await database.read { db in
            guard let copy = try Self.held(db, auditID: auditID, decoder: decoder) else { return nil }
            let tallies = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT location, count(*) AS expected, count(first_scan) AS found,
                            sum(CASE WHEN json_extract(first_scan, '$.location') IS NOT NULL
                                     AND json_extract(first_scan, '$.location') IS NOT location THEN 1 ELSE 0 END) AS misplaced
                        FROM replica_expected WHERE ref = ? GROUP BY location ORDER BY location IS NULL, location
                        """), arguments: [copy.ref]
            ).map { LocationTally(location: $0["location"], expected: $0["expected"], found: $0["found"], misplaced: $0["misplaced"]) }
            let progress = copy.localSession.progress
            let found = tallies.reduce(0) { $0 + $1.found }
            return LocationProgress(
                auditId: auditID, progress: progress, locations: tallies, foundElsewhere: max(progress.scannedCount - found, 0))
        }
    }
}
