import Foundation
import InventoryCore
import InventoryStore
import Testing

/// Every bad input gets an error that names the problem, and nothing is stored.
@Suite("Bad input")
struct BadInputTests {
    static func running() async throws -> (TemporaryStore, SQLiteAuditService, AuditID) {
        let store = try TemporaryStore()
        try await store.addAsset("SG-1")
        let service = store.audits()
        let audit = try await service.start(country: "SG", by: alice).id
        _ = try await service.record(ScanRequest(identifier: "SG-1", auditId: audit))
        return (store, service, audit)
    }

    @Test(
        "Bad identifiers are refused and store nothing",
        arguments: [
            ("SG\u{7}1", "control character"), ("A\u{0}B", "control character"), ("A\u{1B}[31mB", "control character"),
            ("SG-1\nSG-2", "control character"), ("A\u{200B}B", "control character"),
            (String(repeating: "X", count: 10_240), "10240 bytes"), (String(repeating: "é", count: 65), "130 bytes"),
            ("", "empty"), ("   ", "empty"), ("\r\n", "empty"), ("\t\u{0}\u{1B}\u{7F}", "empty")
        ])
    func badIdentifier(identifier: String, problem: String) async throws {
        let (store, service, audit) = try await Self.running()
        let before = try await store.snapshot()
        let progress = try await service.audit(id: audit).progress
        let error = await failure { _ = try await service.record(ScanRequest(identifier: identifier, auditId: audit)) }
        #expect(error?.fields.keys.sorted() == ["identifier"])
        #expect(error?.fields["identifier"]?.first?.contains(problem) == true, "\(String(describing: error?.fields))")
        #expect(error?.errorDescription?.contains(problem) == true)
        #expect(try await store.snapshot() == before)
        #expect(try await service.audit(id: audit).progress == progress)
    }

    @Test func theLongestAcceptedIdentifierIs128Bytes() async throws {
        let (_, service, audit) = try await Self.running()
        let longest = String(repeating: "7", count: 128)
        #expect(try await service.record(ScanRequest(identifier: longest, auditId: audit)).identifier == longest)
        let error = await failure { _ = try await service.record(ScanRequest(identifier: longest + "7", auditId: audit)) }
        #expect(error?.fields["identifier"]?.first?.contains("129 bytes") == true)
    }

    @Test(
        "Bad scan metadata is refused",
        arguments: [
            (ScanRequest(identifier: "SG-1", scanId: "i\u{7}d"), "scan_id"),
            (ScanRequest(identifier: "SG-1", scanId: String(repeating: "i", count: 10_000)), "scan_id"),
            (ScanRequest(identifier: "SG-1", deviceName: "kiosk\u{1B}[2J"), "device_name"),
            (ScanRequest(identifier: "SG-1", user: "al\u{0}ice"), "user"),
            (ScanRequest(identifier: "SG-1", user: String(repeating: "u", count: 5_000)), "user")
        ])
    func badMetadata(request: ScanRequest, field: String) async throws {
        let (store, service, _) = try await Self.running()
        let before = try await store.snapshot()
        #expect(await failure { _ = try await service.record(request) }?.fields.keys.sorted() == [field])
        #expect(try await store.snapshot() == before)
    }

    @Test("Unknown countries are refused everywhere", arguments: ["XX", "ZZ", "", "  ", "SGP", "Singapore", "S G", "ＳＧ"])
    func unknownCountry(country: String) async throws {
        let (store, service, _) = try await Self.running()
        let before = try await store.snapshot()
        #expect(await failure { _ = try await service.start(country: country, by: alice) }?.fields.keys.sorted() == ["country"])
        #expect(await failure { _ = try await service.resolveActive(country: country) }?.fields.keys.sorted() == ["country"])
        #expect(await failure { _ = try await store.addAsset("SG-9", country: country) }?.fields.keys.sorted() == ["country"])
        #expect(await failure { _ = try await store.addCustomer("Acme", country: country) }?.fields.keys.sorted() == ["country"])
        if !country.isEmpty {
            let accessory = AccessoryInput(name: "Cable", category: "Cables", totalQuantity: 1, country: country)
            #expect(await failure { _ = try await store.accessories.create(accessory) }?.fields.keys.sorted() == ["country"])
        }
        #expect(try await store.snapshot() == before)
    }

    @Test func oversizedAndControlTagsAreRefusedOnAssetsToo() async throws {
        let store = try TemporaryStore()
        for tag in [String(repeating: "T", count: 10_240), "T\u{7}X", "T\u{0}1", "A\tB"] {
            #expect(await failure { _ = try await store.addAsset(tag, name: "Laptop") }?.fields.keys.sorted() == ["asset_tag"])
            #expect(await failure { _ = try await store.assets.find(identifier: tag) }?.fields.keys.sorted() == ["identifier"])
        }
        #expect(try await store.count("assets") == 0)
    }
}
