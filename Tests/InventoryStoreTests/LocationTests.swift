import AuditTestSupport
import Foundation
import InventoryCore
import Testing

/// Audits narrowed to locations, and assets found where they are not registered (SPEC
/// "Locations, undo, and acting on what an audit found"), on both back ends.
@Suite("Locations and misplaced assets")
struct LocationTests {
    /// SG assets at Dock A (3), Dock B (2) and nowhere (1), one archived at Dock A, and MY-1.
    static func setUp(_ backend: Backend) async throws -> (backend: ServerBackend, close: @Sendable () async -> Void) {
        let (server, close) = try await backend.make()
        do {
            let assets: [(String, String?, AssetStatus)] = [
                ("A-1", "Dock A", .inStock), ("A-2", "Dock A", .deployed), ("A-3", "Dock A", .inStock), ("A-OLD", "Dock A", .archived),
                ("B-1", "Dock B", .inStock), ("B-2", "Dock B", .inStock), ("N-1", nil, .inStock)
            ]
            for (tag, location, status) in assets {
                _ = try await server.assets.create(
                    AssetInput(assetTag: tag, name: "Laptop \(tag)", status: status.rawValue, country: "SG", location: location))
            }
            _ = try await server.assets.create(AssetInput(assetTag: "MY-1", name: "Laptop", country: "MY", location: "Dock A"))
            return (server, close)
        } catch {
            await close()
            throw error
        }
    }

    @Test("Locations are listed with the assets an audit of each would expect", arguments: Backend.allCases)
    func listed(_ backend: Backend) async throws {
        let (server, close) = try await Self.setUp(backend)
        defer { Task { await close() } }
        let locations = try await server.audits.locations(country: "sg")
        #expect(locations == [LocationCount(location: "Dock A", expectedAssets: 3), LocationCount(location: "Dock B", expectedAssets: 2)])
        #expect(try await server.audits.locations(country: "MY") == [LocationCount(location: "Dock A", expectedAssets: 1)])
        await #expect(throws: InventoryError.self) { try await server.audits.locations(country: "Singapore") }
    }

    @Test("An audit narrowed to locations expects only their assets", arguments: Backend.allCases)
    func narrowed(_ backend: Backend) async throws {
        let (server, close) = try await Self.setUp(backend)
        defer { Task { await close() } }
        let audit = try await server.audits.start(country: "SG", locations: [" Dock B ", "Dock B"], by: alice)
        #expect(audit.totalAssets == 2 && audit.locations == ["Dock B"])
        #expect(try await server.audits.audit(id: audit.id).locations == ["Dock B"])
        let outside = try await server.audits.record(ScanRequest(identifier: "A-1", auditId: audit.id))
        #expect(outside.status == .unexpected && outside.reason == .otherLocation && outside.message.contains("outside this audit's locations"))
        #expect(try await server.audits.record(ScanRequest(identifier: "MY-1", auditId: audit.id)).reason == .otherCountry)
        #expect(try await server.audits.record(ScanRequest(identifier: "B-1", auditId: audit.id)).status == .foundExpected)
        let missing = try await server.audits.details(auditID: audit.id, list: .missing, query: ListQuery()).items.compactMap(\.assetTag)
        #expect(missing == ["B-2"])
    }

    @Test("An unknown location is refused with the known ones, and nothing is started", arguments: Backend.allCases)
    func unknownLocation(_ backend: Backend) async throws {
        let (server, close) = try await Self.setUp(backend)
        defer { Task { await close() } }
        await #expect {
            try await server.audits.start(country: "SG", locations: ["Dock A", "Dock Z"], by: alice)
        } throws: { error in
            let text = (error as? InventoryError)?.errorDescription ?? ""
            return text.contains("'Dock Z' is not a location of SG") && text.contains("Dock A, Dock B")
        }
        await #expect(throws: InventoryError.self) { try await server.audits.start(country: "SG", locations: ["Dock\u{1}A"], by: alice) }
        #expect(try await server.audits.activeAudits().isEmpty)
        // An empty list is the whole country.
        #expect(try await server.audits.start(country: "SG", locations: ["  "], by: alice).totalAssets == 6)
    }

    @Test("An asset found away from its registered location is found, and misplaced", arguments: Backend.allCases)
    func misplaced(_ backend: Backend) async throws {
        let (server, close) = try await Self.setUp(backend)
        defer { Task { await close() } }
        let audits = server.audits
        let audit = try await audits.start(country: "SG", by: alice).id
        let away = try await audits.record(ScanRequest(identifier: "A-1", auditId: audit, scanId: "m1", location: "Dock B"))
        #expect(away.status == .foundExpected && away.misplaced == true)
        #expect(away.registeredLocation == "Dock A" && away.foundLocation == "Dock B")
        #expect(away.message.contains("misplaced: registered at Dock A, found at Dock B"))
        #expect(away.progress.scannedCount == 1)
        let home = try await audits.record(ScanRequest(identifier: "B-1", auditId: audit, location: "Dock B"))
        #expect(home.status == .foundExpected && home.misplaced == nil)
        let unplaced = try await audits.record(ScanRequest(identifier: "N-1", auditId: audit, location: "Dock B"))
        #expect(unplaced.misplaced == true && unplaced.message.contains("registered at no location"))
        // A station that does not know where it stands finds nothing misplaced.
        #expect(try await audits.record(ScanRequest(identifier: "A-2", auditId: audit)).misplaced == nil)
        // A repeat is no news.
        #expect(try await audits.record(ScanRequest(identifier: "A-1", auditId: audit, location: "Dock B")).misplaced == nil)

        let listed = try await audits.details(auditID: audit, list: .misplaced, query: ListQuery())
        #expect(listed.items.compactMap(\.assetTag) == ["A-1", "N-1"] && listed.pagination.total == 2)
        #expect(listed.items.allSatisfy { $0.misplaced == true && $0.foundLocation == "Dock B" })
        let scanned = try await audits.details(auditID: audit, list: .scanned, query: ListQuery()).items
        #expect(scanned.count == 4 && scanned.filter { $0.misplaced == true }.count == 2)
        // Voiding the misplaced first find passes it on to the repeat, also made at Dock B.
        _ = try await audits.void(VoidRequest(scanId: "m1", user: "bob"))
        #expect(try await audits.details(auditID: audit, list: .misplaced, query: ListQuery()).items.compactMap(\.assetTag) == ["A-1", "N-1"])
        #expect(try await audits.audit(id: audit).scannedCount == 4)
    }
}
