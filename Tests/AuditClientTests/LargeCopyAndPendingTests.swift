import AuditAPI
import AuditClient
import AuditTestSupport
import Foundation
import GRDB
import InventoryCore
import InventoryStore
import Testing

/// The copy a connected station keeps: only the expected set and the unexpected entries, and
/// scans of anything else shown pending until the server decides them.
@Suite("A station's copy: the expected set only, and pending scans", .serialized)
struct LargeCopyAndPendingTests {
    @Test func joiningALargeAuditCopiesTheExpectedSetAndNothingElse() async throws {
        try await TestServer.with { server in
            try await server.admin("big@example.com")
            try await Self.insertAssets(server, count: 20_000, prefix: "BIG", country: "SG")
            try await Self.insertAssets(server, count: 3_000, prefix: "OTHER", country: "MY")
            try await Self.insertAssets(server, count: 500, prefix: "GONE", country: "SG", status: "ARCHIVED")
            let first = try await TestStation.make(server, email: "big@example.com", name: "kiosk-1")
            let audit = try await first.audit.start(country: "SG", by: Actor(user: "big", station: "kiosk-1"))
            #expect(audit.totalAssets == 20_000)
            for tag in ["BIG7", "OTHER3", "NOPE-1"] { _ = try await first.scan(tag) }
            #expect(await first.audit.syncNow().remaining == 0)

            let second = try await TestStation.make(server, email: "big@example.com", name: "kiosk-2")
            try await second.audit.join(auditID: audit.id)
            let held = try await second.database.writer.read { db in
                (
                    expected: try Int.fetchOne(db, sql: "SELECT count(*) FROM replica_expected") ?? -1,
                    notExpected: try Int.fetchOne(db, sql: "SELECT count(*) FROM replica_expected WHERE country <> 'SG' OR asset_tag NOT LIKE 'BIG%'")
                        ?? -1,
                    scanned: try Int.fetchOne(db, sql: "SELECT count(*) FROM replica_expected WHERE first_scan IS NOT NULL") ?? -1,
                    unexpected: try String.fetchAll(db, sql: "SELECT key FROM replica_unexpected ORDER BY key")
                )
            }
            #expect(held.expected == 20_000 && held.notExpected == 0 && held.scanned == 1)
            #expect(held.unexpected.count == 2 && held.unexpected.contains("id:NOPE-1"))
            let again = try await second.scan("BIG7")
            #expect(again.status == .alreadyScanned && again.firstScan?.station == "kiosk-1")
            #expect(try await second.scan("SN-BIG19999").status == .foundExpected)
            let other = try await second.scan("OTHER3")
            #expect(other.status == .unexpected && other.reason == .otherCountry && other.firstScan?.station == "kiosk-1")
            #expect(try await second.scan("NOPE-1").status == .unknown)
            // Never scanned in this audit, so not in the copy: the server decides.
            #expect(try await second.scan("OTHER4").status == .pending)
            #expect(try await second.scan("GONE1").status == .pending)
        }
    }

    @Test func aScanOutsideTheCopyIsPendingOfflineAndDecidedOnceTheServerAnswers() async throws {
        let server = try await TestServer.start()
        try await server.admin("wait@example.com")
        try await server.seed([("A1", "SG"), ("A2", "SG"), ("M1", "MY")])
        try await server.seed([("R1", "SG")], status: "ARCHIVED")
        let station = try await TestStation.make(server, email: "wait@example.com", name: "kiosk-1")
        let audit = try await station.audit.start(country: "SG", by: Actor(user: "wait", station: "kiosk-1"))
        let decided = Decisions()
        await station.audit.onDecided { result, _ in await decided.add(result) }

        await server.stop()
        #expect(try await station.scan("A1").status == .foundExpected)
        for tag in ["M1", "NOPE", "NOPE", "R1"] {
            let result = try await station.scan(tag)
            #expect(result.status == .pending && result.message.hasPrefix("Pending"))
            #expect(result.progress.unexpectedCount == 0 && result.progress.scannedCount == 1)
        }
        #expect(await station.audit.syncNow().remaining == 5)
        #expect(await decided.all.isEmpty)

        try await TestServer.with(parts: server.parts, settings: server.settings) { back in
            let report = await station.audit.syncNow()
            #expect(report.pushed == 5 && report.remaining == 0)
            let byTag = await decided.all
            #expect(byTag.map(\.identifier) == ["M1", "NOPE", "NOPE", "R1"])
            #expect(byTag.map(\.status) == [.unexpected, .unknown, .unknown, .unexpected])
            #expect(byTag.map(\.reason) == [.otherCountry, .unknown, .unknown, .archived])
            #expect(byTag[1].firstScan == nil && byTag[2].firstScan != nil)
            #expect(byTag.last?.progress.unexpectedCount == 3)
            let onServer = try await back.parts.audits.audit(id: audit.id)
            #expect(onServer.scannedCount == 1 && onServer.unexpectedCount == 3)
            let stored = try await back.storedScans()
            #expect(stored.rows == 5 && stored.distinct == 5)
            // Decided once, now known to the copy: a repeat is decided here, and counts nothing.
            let repeatM1 = try await station.scan("M1")
            #expect(repeatM1.status == .unexpected && repeatM1.reason == .otherCountry && repeatM1.firstScan != nil)
            #expect(try await station.scan("nope").status == .pending)
            let local = try await station.audit.heldAudits().first { $0.id == audit.id }
            #expect(local?.unexpectedCount == 3)
        }
    }

    /// Assets written straight into the server's database: thousands in one transaction.
    static func insertAssets(_ server: TestServer, count: Int, prefix: String, country: String, status: String = "IN_STOCK") async throws {
        try await server.parts.database.writer.write { db in
            let statement = try db.makeStatement(
                sql: """
                    INSERT INTO assets (asset_tag, serial_num, name, status, country, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """)
            let now = Date()
            for index in 0..<count {
                try statement.execute(arguments: ["\(prefix)\(index)", "SN-\(prefix)\(index)", "Laptop \(index)", status, country, now, now])
            }
        }
    }
}

actor Decisions {
    private(set) var all: [ScanResult] = []
    func add(_ result: ScanResult) { all.append(result) }
}
