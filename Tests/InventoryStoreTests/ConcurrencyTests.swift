import Foundation
import GRDB
import InventoryCore
import InventoryStore
import Testing
import TestKit

/// Several kiosks scanning into one file at once, each through its own connection pool, as
/// separate processes would.
@Suite("Concurrent scans")
struct ConcurrencyTests {
    static let tasks = 8
    static let scansPerTask = 200

    /// The identifier task `task` scans at step `step`: mostly expected tags (many of them
    /// scanned by several tasks), some other-country assets, some unknown identifiers.
    static func identifiers(task: Int) -> [String] {
        var random = SplitMix64(seed: UInt64(task) &+ 1000)
        return (0..<scansPerTask).map { _ in
            switch random.next() % 10 {
            case 0: "MY-\(random.next() % 10)"
            case 1: "GHOST-\(random.next() % 15)"
            default: "C-\(random.next() % 300)"
            }
        }
    }

    @Test func countersEqualARecountOfTheScans() async throws {
        let store = try TemporaryStore()
        let rows =
            (0..<300).map { ImportRow(line: $0 + 2, input: AssetInput(assetTag: "C-\($0)", name: "Laptop", country: "SG")) }
            + (0..<10).map { ImportRow(line: $0 + 302, input: AssetInput(assetTag: "MY-\($0)", name: "Laptop", country: "MY")) }
        _ = try await store.assets.importAssets(rows) { _, _ in }
        let services = [store.audits(), SQLiteAuditService(database: try store.openAgain())]
        let audit = try await services[0].start(country: "SG", by: alice).id

        let results = try await withThrowingTaskGroup(of: [(String, ScanResult)].self) { group in
            for task in 0..<Self.tasks {
                let service = services[task % 2]
                group.addTask {
                    var results: [(String, ScanResult)] = []
                    for (step, identifier) in Self.identifiers(task: task).enumerated() {
                        let scanID = "t\(task)-\(step)"
                        results.append(
                            (
                                scanID,
                                try await service.record(
                                    ScanRequest(
                                        identifier: identifier, auditId: audit, scanId: scanID, deviceName: "kiosk-\(task)", user: "user-\(task)"))
                            ))
                    }
                    return results
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }

        // What the scans must add up to, worked out from the identifiers alone.
        let all = (0..<Self.tasks).flatMap { Self.identifiers(task: $0) }
        let expectedScanned = Set(all.filter { $0.hasPrefix("C-") }).count
        let expectedUnexpected = Set(all.filter { !$0.hasPrefix("C-") }).count
        let final = try await services[1].audit(id: audit)
        #expect(final.scannedCount == expectedScanned && final.unexpectedCount == expectedUnexpected)
        #expect(final.missingCount == 300 - expectedScanned)

        let recount = try await store.database.writer.read { db in
            let count = { (sql: String) in try Int.fetchOne(db, sql: sql, arguments: [audit]) ?? -1 }
            return [
                "scans": try count("SELECT count(*) FROM scans WHERE audit_id = ?"),
                "found": try count("SELECT count(*) FROM scans WHERE audit_id = ? AND status = 'found_expected'"),
                "foundAssets": try count(
                    "SELECT count(DISTINCT asset_id) FROM scans WHERE audit_id = ? AND status IN ('found_expected', 'already_scanned')"),
                "unexpectedKeys": try count(
                    """
                    SELECT count(DISTINCT coalesce('asset:' || asset_id, 'id:' || identifier)) FROM scans
                    WHERE audit_id = ? AND status IN ('unexpected', 'unknown')
                    """),
                "unexpectedEntries": try count("SELECT count(*) FROM audit_unexpected WHERE audit_id = ?"),
                "expectedScanRows": try count("SELECT count(*) FROM scans WHERE audit_id = ? AND status IN ('found_expected', 'already_scanned')"),
                "expectedScanCount": try count("SELECT sum(scan_count) FROM audit_expected WHERE audit_id = ?"),
                "unexpectedScanRows": try count("SELECT count(*) FROM scans WHERE audit_id = ? AND status IN ('unexpected', 'unknown')"),
                "unexpectedScanCount": try count("SELECT sum(scan_count) FROM audit_unexpected WHERE audit_id = ?")
            ]
        }
        #expect(recount["scans"] == Self.tasks * Self.scansPerTask)
        #expect(recount["found"] == final.scannedCount, "each expected asset is found exactly once")
        #expect(recount["foundAssets"] == final.scannedCount)
        #expect(recount["unexpectedKeys"] == final.unexpectedCount && recount["unexpectedEntries"] == final.unexpectedCount)
        #expect(recount["expectedScanCount"] == recount["expectedScanRows"])
        #expect(recount["unexpectedScanCount"] == recount["unexpectedScanRows"])

        // Every outcome a kiosk was shown is the one stored, and the counts it saw only grow.
        #expect(results.count == Self.tasks * Self.scansPerTask)
        #expect(results.filter { $0.1.status == .foundExpected }.count == final.scannedCount)
        #expect(results.map(\.1.progress.scannedCount).max() == final.scannedCount)
        // Each first find moved the count up by exactly one: the counts they returned are 1...N.
        let foundCounts = results.filter { $0.1.status == .foundExpected }.map(\.1.progress.scannedCount).sorted()
        #expect(foundCounts == Array(1...final.scannedCount))
        let newUnexpected = results.filter { [.unexpected, .unknown].contains($0.1.status) && $0.1.firstScan == nil }
        #expect(newUnexpected.map(\.1.progress.unexpectedCount).sorted() == Array(1...final.unexpectedCount))
        let stored = try await store.database.writer.read { db in
            try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT scan_id, status FROM scans")
                    .map { ($0["scan_id"] as String, $0["status"] as String) })
        }
        #expect(results.allSatisfy { stored[$0.0] == $0.1.status.rawValue })
    }

    @Test func concurrentStartsInOneCountryGiveOneAudit() async throws {
        let store = try TemporaryStore()
        try await store.addAsset("SG-1")
        let services = [store.audits(), SQLiteAuditService(database: try store.openAgain())]
        let outcomes = await withTaskGroup(of: Result<AuditSession, any Error>.self) { group in
            for n in 0..<6 {
                let service = services[n % 2]
                group.addTask { await Result(catching: { try await service.start(country: "SG", by: Actor(user: "u\(n)", station: "k\(n)")) }) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let started = outcomes.compactMap { try? $0.get() }
        #expect(started.count == 1)
        let id = try #require(started.first?.id)
        for outcome in outcomes {
            if case .failure(let error) = outcome {
                #expect(InventoryError(error) == .auditAlreadyActive(country: "SG", auditID: id))
            }
        }
        #expect(try await store.count("audits") == 1)
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
