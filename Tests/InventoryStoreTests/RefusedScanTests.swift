import ConnectedStore
import Foundation
import InventoryCore
import InventoryStore
import Testing

/// A connected station's copy keeps its numbers right as the server's answers come: it forgets a
/// scan the server refused (the numbers it shows and its "already scanned" answers count only
/// scans the server's audit can hold), and an older description of the audit never takes back
/// the numbers of a newer answer.
@Suite struct RefusedScanTests {
    static let audit = AuditSession(
        id: "audit-1", country: "SG", progress: AuditProgress(totalAssets: 3, scannedCount: 0, unexpectedCount: 0),
        startedAt: Date(timeIntervalSince1970: 1_700_000_000), startedBy: "Ann")

    static func scan(_ identifier: String, id: String, second: Int) -> OutboxEntry {
        OutboxEntry(
            scanID: id, auditID: audit.id, identifier: identifier, source: .manual, station: "kiosk-1", user: "Ann",
            scannedAt: Date(timeIntervalSince1970: TimeInterval(1_700_000_100 + second)), localStatus: .pending,
            localMessage: "", addsScanned: false, addsUnexpected: false)
    }

    static func station() async throws -> (TemporaryStore, StationOutbox, StationCopy) {
        let store = try TemporaryStore()
        let outbox = try StationOutbox(database: store.database)
        let copies = try StationCopy(database: store.database)
        let expected = (1...3).map {
            AuditSnapshot.Expected(asset: AssetBrief(id: Int64($0), assetTag: "A\($0)", name: "Laptop \($0)", country: "SG"), firstScan: nil)
        }
        try await copies.store(audit: audit, expected: expected)
        return (store, outbox, copies)
    }

    @Test("A refused first scan passes the find to the station's next scan of the asset; refused too, the asset is missing again")
    func refusedFindsAreUndone() async throws {
        let (store, outbox, copies) = try await Self.station()
        defer { withExtendedLifetime(store) {} }
        func record(_ tag: String, _ id: String, _ second: Int) async throws -> ScanStatus {
            try #require(try await copies.record(Self.scan(tag, id: id, second: second), caseSensitive: true)).decision.status
        }
        func scanned() async throws -> Int { try #require(try await copies.localSession(auditID: Self.audit.id)).scannedCount }

        #expect(try await record("A1", "scan-1", 0) == .foundExpected)
        #expect(try await record("A1", "scan-2", 5) == .alreadyScanned)
        #expect(try await record("A2", "scan-3", 9) == .foundExpected)
        #expect(try await scanned() == 2)

        // The first scan of A1 is refused: the repeat made at this station takes the find over.
        try await outbox.reject(scanID: "scan-1", error: "not in this audit")
        #expect(try await scanned() == 2)
        let passed = try #require(try await copies.decision(for: Self.scan("A1", id: "probe", second: 20), caseSensitive: true))
        #expect(passed.status == .alreadyScanned)
        #expect(passed.firstScan?.scannedAt == Self.scan("A1", id: "scan-2", second: 5).scannedAt)
        #expect(try await outbox.entry(scanID: "scan-2")?.addsScanned == true)

        // Refused as well: A1 is missing here again, and its next scan finds it.
        try await outbox.reject(scanID: "scan-2", error: "not in this audit")
        #expect(try await scanned() == 1)
        #expect(try await record("A1", "scan-4", 30) == .foundExpected)
        #expect(try await scanned() == 2)

        // A refusal the outbox already holds changes nothing a second time.
        try await outbox.reject(scanID: "scan-2", error: "not in this audit")
        #expect(try await scanned() == 2)
        let counts = try await outbox.counts()
        #expect(counts.rejected == 2)
        // The server answered, if with a refusal: the station was in step with it then.
        #expect(counts.lastSyncAt != nil)
    }

    @Test("A description the copy holds already writes no row; a changed one does")
    func anUnchangedDescriptionWritesNothing() async throws {
        let (store, _, copies) = try await Self.station()
        defer { withExtendedLifetime(store) {} }
        func rowsWritten(_ body: () async throws -> Void) async throws -> Int {
            let before = try await store.database.writer.write { $0.totalChangesCount }
            try await body()
            return try await store.database.writer.write { $0.totalChangesCount } - before
        }
        #expect(try await rowsWritten { try await copies.update(Self.audit) } == 0)
        var more = Self.audit
        more.progress = AuditProgress(totalAssets: 3, scannedCount: 2, unexpectedCount: 0)
        // The description, and the revision of the numbers the station shows (its trigger).
        #expect(try await rowsWritten { try await copies.update(more) } == 2)
        #expect(try await copies.session(auditID: Self.audit.id)?.scannedCount == 2)
        #expect(try await rowsWritten { try await copies.update(more) } == 0)
    }

    @Test("The server's description of an audit, asked before a scan's answer came, does not take the answer's numbers back")
    func anOlderDescriptionKeepsNewerNumbers() async throws {
        let (store, _, copies) = try await Self.station()
        defer { withExtendedLifetime(store) {} }
        // The station asks the server how the audit stands (it says: nothing scanned yet)...
        let mark = try await copies.answerMark()
        // ...and meanwhile its scan of A1 reaches the server, whose answer counts it.
        let local = try #require(try await copies.record(Self.scan("A1", id: "scan-1", second: 0), caseSensitive: true))
        let answer = ScanResult(
            identifier: "A1", status: .foundExpected, message: "Found", asset: nil, reason: nil, firstScan: nil,
            progress: AuditProgress(totalAssets: 3, scannedCount: 1, unexpectedCount: 0), auditId: Self.audit.id, scanId: "scan-1")
        try await copies.applyServerResult(answer, for: local.entry)
        // The description, read on the server before the scan, comes last: its numbers are older.
        try await copies.update(Self.audit, unlessAnsweredSince: mark)
        #expect(try await copies.localSession(auditID: Self.audit.id)?.scannedCount == 1)
        // Its end is taken all the same.
        var ended = Self.audit
        ended.isActive = false
        try await copies.update(ended, unlessAnsweredSince: mark)
        let after = try #require(try await copies.session(auditID: Self.audit.id))
        #expect(!after.isActive && after.scannedCount == 1)
        // Asked after the answer, the server's numbers are taken as they are.
        try await copies.update(Self.audit, unlessAnsweredSince: try await copies.answerMark())
        #expect(try await copies.session(auditID: Self.audit.id)?.scannedCount == 0)
    }

    @Test("A refused scan of an asset another station found first takes nothing off the copy")
    func refusedRepeatsChangeNothing() async throws {
        let (store, outbox, copies) = try await Self.station()
        defer { withExtendedLifetime(store) {} }
        let other = FirstScan(scannedAt: Date(timeIntervalSince1970: 1_700_000_050), station: "kiosk-2", user: "Bo", source: .camera)
        let expected = (1...3).map {
            AuditSnapshot.Expected(
                asset: AssetBrief(id: Int64($0), assetTag: "A\($0)", name: "Laptop \($0)", country: "SG"), firstScan: $0 == 1 ? other : nil)
        }
        var session = Self.audit
        session.progress = AuditProgress(totalAssets: 3, scannedCount: 1, unexpectedCount: 0)
        try await copies.store(audit: session, expected: expected)
        let local = try #require(try await copies.record(Self.scan("A1", id: "scan-1", second: 0), caseSensitive: true))
        #expect(local.decision.status == .alreadyScanned)
        try await outbox.reject(scanID: "scan-1", error: "not in this audit")
        #expect(try await copies.localSession(auditID: Self.audit.id)?.scannedCount == 1)
        let still = try #require(try await copies.decision(for: Self.scan("A1", id: "probe", second: 20), caseSensitive: true))
        #expect(still.status == .alreadyScanned && still.firstScan == other)
    }
}
