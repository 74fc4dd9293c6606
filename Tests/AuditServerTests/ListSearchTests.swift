import AuditTestSupport
import Foundation
import InventoryCore
import Testing

/// The back office's list searches: "contains" over the fields each list shows, any case (ASCII
/// letters), the same on both back ends. On SQLite a text of 3 or more characters is served by
/// the assets' search index, a shorter one by reading the rows; these tests hold both to the
/// same answers, and the index to every change of the assets.
@Suite("List searches")
struct ListSearchTests {
    static let actor = Actor(user: "alice", station: "k1")

    /// Four SG assets and one of MY, then a running audit of SG that expects the four.
    static func withAudit(_ backend: Backend, _ body: (ServerBackend, AuditID) async throws -> Void) async throws {
        let (services, close) = try await backend.make()
        do {
            let assets: [AssetInput] = [
                AssetInput(
                    assetTag: "SG-1001", serialNum: "SN-A1", name: "Laptop Alpha", model: "ThinkPad X1", country: "SG", location: "Dock North"),
                AssetInput(assetTag: "SG-1002", serialNum: "SN-B2", name: "Monitor Beta", model: "UltraSharp", country: "SG", location: "Dock South"),
                AssetInput(assetTag: "SG-1003", name: "Hub 50%_x", model: #"Cable "Pro""#, country: "SG", location: "Shelf_4"),
                AssetInput(assetTag: "SG-2004", name: "Laptop 500", country: "SG", location: "Shelf 4"),
                AssetInput(assetTag: "MY-1001", name: "Laptop Abroad", country: "MY", location: "Dock North")
            ]
            for asset in assets { _ = try await services.assets.create(asset) }
            let audit = try await services.audits.start(country: "SG", by: actor)
            try await body(services, audit.id)
        } catch {
            await close()
            throw error
        }
        await close()
    }

    static func assetTags(_ services: ServerBackend, _ text: String) async throws -> [String] {
        let page = try await services.assets.list(AssetFilter(), query: ListQuery(search: text, perPage: 100))
        #expect(page.pagination.total == page.items.count, "the total counts what the search found, for \(text)")
        return page.items.map(\.assetTag)
    }

    static func missingTags(_ services: ServerBackend, _ audit: AuditID, _ text: String) async throws -> [String] {
        let page = try await services.audits.details(auditID: audit, list: .missing, query: ListQuery(search: text, perPage: 100))
        #expect(page.pagination.total == page.items.count, "the total counts what the search found, for \(text)")
        return page.items.compactMap(\.assetTag)
    }

    @Test("A middle part of a tag, a name, a model or a location, in any case", arguments: Backend.allCases)
    func middleParts(backend: Backend) async throws {
        try await Self.withAudit(backend) { services, audit async throws in
            #expect(try await Self.assetTags(services, "g-100") == ["SG-1001", "SG-1002", "SG-1003"])
            #expect(try await Self.assetTags(services, "-100") == ["SG-1001", "SG-1002", "SG-1003", "MY-1001"])
            #expect(try await Self.assetTags(services, "APTOP a") == ["SG-1001", "MY-1001"])
            #expect(try await Self.assetTags(services, "rasH") == ["SG-1002"])
            #expect(try await Self.assetTags(services, "n-b") == ["SG-1002"])
            // The assets' search reads tag, serial, name and model, not the location.
            #expect(try await Self.assetTags(services, "ock nor") == [])

            #expect(try await Self.missingTags(services, audit, "g-100") == ["SG-1001", "SG-1002", "SG-1003"])
            #expect(try await Self.missingTags(services, audit, "APTOP") == ["SG-1001", "SG-2004"])
            #expect(try await Self.missingTags(services, audit, "ock nor") == ["SG-1001"])
            #expect(try await Self.missingTags(services, audit, "INKPAD") == ["SG-1001"])
            _ = try await services.audits.record(ScanRequest(identifier: "SG-1001", auditId: audit))
            #expect(try await Self.missingTags(services, audit, "g-100") == ["SG-1002", "SG-1003"], "a scanned asset leaves the missing list")
            #expect(try await Self.missingTags(services, audit, "nothing like it") == [])
        }
    }

    @Test("Texts shorter than 3 characters are searched too", arguments: Backend.allCases)
    func shortTexts(backend: Backend) async throws {
        try await Self.withAudit(backend) { services, audit async throws in
            #expect(try await Self.assetTags(services, "PH") == ["SG-1001"])
            #expect(try await Self.assetTags(services, "x") == ["SG-1001", "SG-1003"])
            #expect(try await Self.missingTags(services, audit, "tH") == ["SG-1001", "SG-1002"])
            #expect(try await Self.missingTags(services, audit, "3") == ["SG-1003"])
        }
    }

    @Test("Wildcards and quotes in the text are plain characters", arguments: Backend.allCases)
    func literalCharacters(backend: Backend) async throws {
        try await Self.withAudit(backend) { services, audit async throws in
            for (text, tags) in [
                ("50%", ["SG-1003"]), ("0%_", ["SG-1003"]), ("5_%", []), ("%_", ["SG-1003"]), ("%", ["SG-1003"]),
                ("_x", ["SG-1003"]), (#""Pro""#, ["SG-1003"]), (#"e "p"#, ["SG-1003"]), (#"""#, ["SG-1003"]), ("lap%", [])
            ] {
                #expect(try await Self.assetTags(services, text) == tags, "assets, \(text)")
                #expect(try await Self.missingTags(services, audit, text) == tags, "missing, \(text)")
            }
            #expect(try await Self.missingTags(services, audit, "f_4") == ["SG-1003"], "Shelf_4, not Shelf 4")
            #expect(try await Self.missingTags(services, audit, "f\\4") == [])
        }
    }

    @Test("The assets' search follows edits, renames and deletes", arguments: Backend.allCases)
    func assetsFollowChanges(backend: Backend) async throws {
        try await Self.withAudit(backend) { services, _ async throws in
            let abroad = try #require(try await services.assets.find(identifier: "MY-1001"))
            _ = try await services.assets.update(id: abroad.id, AssetInput(assetTag: "MY-7007", name: "Tablet Omega", model: "Slate"))
            #expect(try await Self.assetTags(services, "Abroad") == [])
            #expect(try await Self.assetTags(services, "Y-1001") == [])
            #expect(try await Self.assetTags(services, "y-700") == ["MY-7007"])
            #expect(try await Self.assetTags(services, "ET OME") == ["MY-7007"])
            #expect(try await Self.assetTags(services, "slat") == ["MY-7007"])
            _ = try await services.assets.delete(id: abroad.id, mode: .delete)
            #expect(try await Self.assetTags(services, "Omega") == [])
            _ = try await services.assets.create(AssetInput(assetTag: "MY-8008", name: "Omega two", country: "MY"))
            #expect(try await Self.assetTags(services, "omega") == ["MY-8008"])
        }
    }

    /// An audit's lists show each asset as the audit recorded it; a search finds an entry when
    /// its asset as it is now and its recorded row both contain the text (see "Search" in
    /// docs/office.md).
    @Test("An audit's search finds an edited asset by what its record and its asset both hold", arguments: Backend.allCases)
    func auditAfterEdits(backend: Backend) async throws {
        try await Self.withAudit(backend) { services, audit async throws in
            let alpha = try #require(try await services.assets.find(identifier: "SG-1001"))
            _ = try await services.assets.update(id: alpha.id, AssetInput(name: "Laptop Zeta", location: "Dock East"))
            #expect(try await Self.missingTags(services, audit, "Alpha") == [], "the asset no longer holds it")
            #expect(try await Self.missingTags(services, audit, "Zeta") == [], "the audit's record never held it")
            #expect(try await Self.missingTags(services, audit, "laptop") == ["SG-1001", "SG-2004"], "both hold it")
            let page = try await services.audits.details(auditID: audit, list: .missing, query: ListQuery(search: "laptop"))
            #expect(page.items.first?.name == "Laptop Alpha", "the list shows the row as the audit recorded it")
            // Texts too short for the search index read the audit's record alone.
            #expect(try await Self.missingTags(services, audit, "ph") == ["SG-1001"])
        }
    }
    @Test("A text that more assets hold than the index serves is searched in the rows, with the same answers")
    func commonTexts() async throws {
        let (services, close) = try await Backend.sqlite.make()
        do {
            let count = 50_010 // more than the index serves (50,000)
            let rows = (0..<count).map { ImportRow(line: $0 + 2, input: AssetInput(assetTag: "CM-\($0)", name: "Laptop \($0)", country: "SG")) }
            _ = try await services.assets.importAssets(rows) { _, _ in }
            _ = try await services.assets.create(AssetInput(assetTag: "CM-X", name: "Tablet rare", country: "SG"))
            let audit = try await services.audits.start(country: "SG", by: Self.actor).id
            let common = try await services.assets.list(AssetFilter(), query: ListQuery(search: "LAPTOP", perPage: 10))
            #expect(common.pagination.total == count)
            #expect(common.items.first?.assetTag == "CM-0")
            let missing = try await services.audits.details(auditID: audit, list: .missing, query: ListQuery(search: "aptop", perPage: 10))
            #expect(missing.pagination.total == count)
            #expect(try await Self.missingTags(services, audit, "aptop 5001") == ["CM-5001"], "a rare text, through the index")
            #expect(try await Self.assetTags(services, "ablet ra") == ["CM-X"])
        } catch {
            await close()
            throw error
        }
        await close()
    }
}
