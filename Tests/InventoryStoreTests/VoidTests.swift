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
        // As the API sends them (times to the millisecond): the same void each time.
        let wire = { (void: ScanVoid) in String(decoding: try JSONEncoder.auditStation().encode(void), as: UTF8.self) }
        #expect(try wire(again.void) == wire(first.void) && wire(other.void) == wire(first.void))
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
        try await Self.expectBreakdownEqualsRecount(audits, audit, backend)
    }

    @Test("The breakdown by location, station and user equals a recount, after scans and voids", arguments: Backend.allCases)
    func breakdownAfterVoids(_ backend: Backend) async throws {
        let (server, close) = try await backend.make()
        defer { Task { await close() } }
        for n in 1...12 {
            let location: String? = n.isMultiple(of: 4) ? nil : "Dock \(n % 3)"
            _ = try await server.assets.create(AssetInput(assetTag: "SG-\(n)", name: "Laptop \(n)", country: "SG", location: location))
        }
        _ = try await server.assets.create(AssetInput(assetTag: "MY-1", name: "Laptop", country: "MY"))
        let audits = server.audits
        let audit = try await audits.start(country: "SG", by: alice).id
        func scan(_ identifier: String, _ scanID: String, station: String, user: String, at location: String? = nil) async throws {
            _ = try await audits.record(
                ScanRequest(identifier: identifier, auditId: audit, scanId: scanID, deviceName: station, user: user, location: location))
        }
        try await scan("SG-1", "a1", station: "kiosk-a", user: "alice", at: "Dock 1")
        try await scan("SG-1", "b1", station: "kiosk-b", user: "bob", at: "Dock 2")
        try await scan("SG-2", "a2", station: "kiosk-a", user: "alice", at: "Dock 0")
        try await scan("SG-3", "b3", station: "kiosk-b", user: "alice")
        try await scan("SG-4", "c4", station: "kiosk-c", user: "carol", at: "Dock 1")
        try await scan("SG-5", "c5", station: "kiosk-c", user: "carol", at: "Dock 2")
        try await scan("GHOST-1", "ag", station: "kiosk-a", user: "alice")
        try await scan("GHOST-1", "bg", station: "kiosk-b", user: "bob")
        try await scan("MY-1", "cm", station: "kiosk-c", user: "carol")
        try await scan("GHOST-2", "dg", station: "kiosk-d", user: "dave")
        let before = try await audits.breakdown(auditID: audit)
        #expect(before.byStation.first { $0.name == "kiosk-a" } == ScanTally(name: "kiosk-a", scans: 3, found: 2, unexpected: 1))
        #expect(before.byLocation.first { $0.location == "Dock 1" }.map { [$0.expected, $0.found, $0.misplaced] } == [3, 1, 0])
        try await Self.expectBreakdownEqualsRecount(audits, audit, backend)

        // A first find passed on to another station and user, at another location; a find
        // undone; an unknown identifier's first scan passed on; an unexpected entry undone,
        // which leaves kiosk-d with no scan that stands.
        for scanID in ["a1", "c5", "ag", "dg", "cm"] { _ = try await Self.void(audits, scanID) }
        let after = try await audits.breakdown(auditID: audit)
        #expect(after.byStation.map(\.name) == ["kiosk-b", "kiosk-a", "kiosk-c"])
        #expect(after.byStation.first { $0.name == "kiosk-b" } == ScanTally(name: "kiosk-b", scans: 3, found: 2, unexpected: 1))
        #expect(after.byLocation.first { $0.location == "Dock 1" }.map { [$0.expected, $0.found, $0.misplaced] } == [3, 1, 1])
        try await Self.expectBreakdownEqualsRecount(audits, audit, backend)
        // The summary an audit ends with has the same tallies.
        let summary = try await audits.end(auditID: audit, by: alice)
        #expect(summary.byStation == after.byStation && summary.byUser == after.byUser)
    }

    /// The breakdown (and, on SQLite, the location progress), against the same
    /// numbers counted here from the audit's lists and trail.
    static func expectBreakdownEqualsRecount(
        _ audits: any ServerAuditService, _ audit: AuditID, _ backend: Backend, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        func all<T: Sendable>(_ fetch: (ListQuery) async throws -> Page<T>) async throws -> [T] {
            var items: [T] = []
            var page = 1
            while true {
                let found = try await fetch(ListQuery(page: page, perPage: 100)).items
                items += found
                if found.count < 100 { return items }
                page += 1
            }
        }
        let expected = try await all { try await audits.details(auditID: audit, list: .all, query: $0) }
        let unexpected = try await all { try await audits.details(auditID: audit, list: .unexpected, query: $0) }
        let standing = try await all { try await audits.scans(auditID: audit, query: $0) }.filter { $0.voided == nil }

        let locations = Dictionary(grouping: expected, by: \.location).map { location, entries in
            LocationTally(
                location: location, expected: entries.count, found: entries.filter { $0.outcome != .missing }.count,
                misplaced: entries.filter { $0.misplaced == true }.count)
        }.sorted { ($0.location == nil ? 1 : 0, $0.location ?? "") < ($1.location == nil ? 1 : 0, $1.location ?? "") }
        func tallies(_ name: (ScanRecord) -> String, _ first: (AuditAsset) -> String?) -> [ScanTally] {
            Dictionary(grouping: standing, by: name).map { name, scans in
                ScanTally(
                    name: name, scans: scans.count, found: expected.filter { $0.outcome != .missing && first($0) == name }.count,
                    unexpected: unexpected.filter { first($0) == name }.count)
            }.sorted { ($1.scans, $0.name) < ($0.scans, $1.name) }
        }
        let byStation = tallies(\.station, \.station)
        let byUser = tallies(\.user, \.user)

        let breakdown = try await audits.breakdown(auditID: audit)
        #expect(breakdown.byLocation == locations, sourceLocation: sourceLocation)
        #expect(breakdown.byStation == byStation, sourceLocation: sourceLocation)
        #expect(breakdown.byUser == byUser, sourceLocation: sourceLocation)
        if backend == .sqlite { // the kiosk's by-location panel: only the SQLite service serves it
            #expect(try await audits.locationProgress(auditID: audit).locations == locations, sourceLocation: sourceLocation)
        }
        let session = try await audits.audit(id: audit)
        #expect(locations.map(\.found).reduce(0, +) == session.scannedCount, sourceLocation: sourceLocation)
        #expect(byStation.map(\.unexpected).reduce(0, +) == session.unexpectedCount, sourceLocation: sourceLocation)
    }
}
