import AuditTestSupport
import Foundation
import InventoryCore
import Testing

/// Undoing a scan (SPEC "Locations, undo, and acting on what an audit found"): the void is its
/// own record in the trail, and the numbers are as if the scan had never been made, on both
/// back ends.
@Suite("Voids")
struct VoidTests {
    /// A back end with SG-1…SG-`count` in SG and MY-1 in MY, and a running audit of SG.
    static func setUp(_ backend: Backend, count: Int = 3) async throws -> (
        audits: any ServerAuditService, audit: AuditID, close: @Sendable () async -> Void
    ) {
        let (server, close) = try await backend.make()
        do {
            for n in 1...count { _ = try await server.assets.create(AssetInput(assetTag: "SG-\(n)", name: "Laptop \(n)", country: "SG")) }
            _ = try await server.assets.create(AssetInput(assetTag: "MY-1", name: "Laptop", country: "MY"))
            let audit = try await server.audits.start(country: "SG", by: alice).id
            return (server.audits, audit, close)
        } catch {
            await close()
            throw error
        }
    }

    static func scan(_ audits: any ServerAuditService, _ audit: AuditID, _ identifier: String, _ scanID: String, station: String = "kiosk-1")
        async throws -> ScanResult
    {
        try await audits.record(ScanRequest(identifier: identifier, auditId: audit, scanId: scanID, deviceName: station, user: "alice"))
    }

    static func void(_ audits: any ServerAuditService, _ scanID: String, reason: String? = nil, voidID: String? = nil) async throws -> VoidResult {
        try await audits.void(VoidRequest(scanId: scanID, reason: reason, voidId: voidID, deviceName: "kiosk-2", user: "bob"))
    }

    @Test("Voiding the only scan of a found asset makes it missing again, and the trail keeps both", arguments: Backend.allCases)
    func onlyScanOfAFoundAsset(_ backend: Backend) async throws {
        let (audits, audit, close) = try await Self.setUp(backend)
        defer { Task { await close() } }
        _ = try await Self.scan(audits, audit, "SG-1", "s1")
        let result = try await Self.void(audits, "s1", reason: "scanned the wrong shelf")
        #expect(result.progress.scannedCount == 0 && result.progress.missingCount == 3)
        #expect(result.message.contains("missing again"))
        #expect(result.void.user == "bob" && result.void.station == "kiosk-2" && result.void.reason == "scanned the wrong shelf")
        let session = try await audits.audit(id: audit)
        #expect(session.scannedCount == 0 && session.missingCount == 3)
        let missing = try await audits.details(auditID: audit, list: .missing, query: ListQuery()).items.compactMap(\.assetTag)
        #expect(missing.sorted() == ["SG-1", "SG-2", "SG-3"])
        let trail = try await audits.scans(auditID: audit, query: ListQuery()).items
        #expect(trail.count == 1 && trail[0].scanId == "s1" && trail[0].voided?.voidId == result.void.voidId)
        // Scanned again, it is a first find again.
        #expect(try await Self.scan(audits, audit, "SG-1", "s2").status == .foundExpected)
        #expect(try await audits.audit(id: audit).scannedCount == 1)
    }

    @Test("Voiding a repeat changes no count; voiding a first find a repeat followed passes the find on", arguments: Backend.allCases)
    func repeatsAndFirsts(_ backend: Backend) async throws {
        let (audits, audit, close) = try await Self.setUp(backend)
        defer { Task { await close() } }
        _ = try await Self.scan(audits, audit, "SG-1", "s1", station: "kiosk-1")
        _ = try await Self.scan(audits, audit, "SG-1", "s2", station: "kiosk-7")
        _ = try await Self.scan(audits, audit, "SG-1", "s3", station: "kiosk-8")
        let repeatVoid = try await Self.void(audits, "s3")
        #expect(repeatVoid.progress.scannedCount == 1 && repeatVoid.message.contains("no count changed"))
        let firstVoid = try await Self.void(audits, "s1")
        #expect(firstVoid.progress.scannedCount == 1 && firstVoid.message.contains("still counts"))
        let entry = try #require(try await audits.details(auditID: audit, list: .scanned, query: ListQuery()).items.first)
        #expect(entry.assetTag == "SG-1" && entry.station == "kiosk-7" && entry.scanCount == 1)
        let last = try await Self.void(audits, "s2")
        #expect(last.progress.scannedCount == 0)
        #expect(try await audits.details(auditID: audit, list: .scanned, query: ListQuery()).items.isEmpty)
    }

    @Test("Voiding an unexpected entry's only scan takes it off the list; a known asset's repeat does not", arguments: Backend.allCases)
    func unexpectedEntries(_ backend: Backend) async throws {
        let (audits, audit, close) = try await Self.setUp(backend)
        defer { Task { await close() } }
        _ = try await Self.scan(audits, audit, "GHOST-1", "u1")
        _ = try await Self.scan(audits, audit, "MY-1", "u2")
        _ = try await Self.scan(audits, audit, "MY-1", "u3")
        #expect(try await audits.audit(id: audit).unexpectedCount == 2)
        #expect(try await Self.void(audits, "u1").progress.unexpectedCount == 1)
        #expect(try await Self.void(audits, "u2").progress.unexpectedCount == 1)
        let entries = try await audits.details(auditID: audit, list: .unexpected, query: ListQuery()).items
        #expect(entries.map(\.identifier) == ["MY-1"] && entries.map(\.scanCount) == [1])
        #expect(try await Self.void(audits, "u3").progress.unexpectedCount == 0)
        #expect(try await Self.scan(audits, audit, "GHOST-1", "u4").status == .unknown)
        #expect(try await audits.audit(id: audit).unexpectedCount == 1)
    }

    @Test("The same void twice is one void", arguments: Backend.allCases)
    func idempotent(_ backend: Backend) async throws {
        let (audits, audit, close) = try await Self.setUp(backend)
        defer { Task { await close() } }
        _ = try await Self.scan(audits, audit, "SG-1", "s1")
        _ = try await Self.scan(audits, audit, "SG-2", "s2")
        let first = try await Self.void(audits, "s1", voidID: "v-1")
        let again = try await Self.void(audits, "s1", voidID: "v-1")
        let other = try await Self.void(audits, "s1", voidID: "v-2")
        #expect(again.void == first.void && other.void == first.void)
        #expect(try await audits.audit(id: audit).scannedCount == 1)
        // A void id already used for another scan is refused, and changes nothing.
        await #expect(throws: InventoryError.duplicate(field: "void_id", value: "v-1")) { try await Self.void(audits, "s2", voidID: "v-1") }
        #expect(try await audits.audit(id: audit).scannedCount == 1)
    }

    @Test("Bad voids are refused with a clear error and change nothing", arguments: Backend.allCases)
    func badVoids(_ backend: Backend) async throws {
        let (audits, audit, close) = try await Self.setUp(backend)
        defer { Task { await close() } }
        _ = try await Self.scan(audits, audit, "SG-1", "s1")
        await #expect(throws: InventoryError.notFound("scan nope")) { try await Self.void(audits, "nope") }
        await #expect {
            try await audits.void(VoidRequest(scanId: "s1", auditId: "another-audit", user: "bob"))
        } throws: { error in
            (error as? InventoryError).map { "\($0.errorDescription ?? "")".contains("scan of another audit") } ?? false
        }
        await #expect(throws: InventoryError.self) { try await audits.void(VoidRequest(scanId: "s1", reason: "bad\u{7}reason")) }
        #expect(try await audits.audit(id: audit).scannedCount == 1)
        _ = try await audits.end(auditID: audit, by: alice)
        await #expect(throws: InventoryError.auditEnded(audit)) { try await Self.void(audits, "s1") }
        let ended = try await audits.audit(id: audit)
        #expect(ended.scannedCount == 1)
        #expect(try await audits.scans(auditID: audit, query: ListQuery()).items.allSatisfy { $0.voided == nil })
    }

    /// A void and scans of the same asset at the same moment: whatever order they are stored
    /// in, the numbers equal a recount of the scans that stand.
    @Test("A void racing scans of the same asset leaves exact counts", arguments: Backend.allCases)
    func voidRacingScans(_ backend: Backend) async throws {
        let (audits, audit, close) = try await Self.setUp(backend, count: 20)
        defer { Task { await close() } }
        for n in 1...20 { _ = try await Self.scan(audits, audit, "SG-\(n)", "first-\(n)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 1...20 {
                group.addTask { _ = try await Self.void(audits, "first-\(n)") }
                group.addTask { _ = try await Self.scan(audits, audit, "SG-\(n)", "again-\(n)", station: "kiosk-\(n % 3)") }
                if n.isMultiple(of: 2) { group.addTask { _ = try await Self.scan(audits, audit, "MY-1", "my-\(n)") } }
            }
            try await group.waitForAll()
        }
        var trail: [ScanRecord] = []
        var page = 1
        while true {
            let items = try await audits.scans(auditID: audit, query: ListQuery(page: page, perPage: 100)).items
            trail += items
            if items.count < 100 { break }
            page += 1
        }
        let standing = trail.filter { $0.voided == nil }
        let found = Set(standing.filter { $0.status == .foundExpected || $0.status == .alreadyScanned }.compactMap(\.assetId))
        let session = try await audits.audit(id: audit)
        #expect(found.count == 20, "every asset was scanned again after or around its void")
        #expect(session.scannedCount == found.count && session.unexpectedCount == 1)
        let scanned = try await audits.details(auditID: audit, list: .scanned, query: ListQuery(perPage: 100))
        #expect(scanned.pagination.total == found.count)
        // Each asset's entry counts its standing scans: exactly one each.
        #expect(scanned.items.allSatisfy { $0.scanCount == 1 })
    }
}
