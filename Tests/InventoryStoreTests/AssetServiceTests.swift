import Foundation
import GRDB
import InventoryCore
import InventoryStore
import Testing

@Suite("Assets")
struct AssetServiceTests {
    @Test func createNormalisesAndStoresEveryField() async throws {
        let store = try TemporaryStore()
        let input = AssetInput(
            assetTag: " SG-1 ", serialNum: "SN1", name: " ThinkPad ", model: "T14", status: "deployed",
            condition: "good", manufacturer: "Lenovo", assetType: "laptop", cpuType: "i7", cpuCores: "8",
            memory: "32GB", harddrive: "1TB", country: "sg", location: "HQ", company: "Acme",
            notes: "line one\nline two", techNotes: "BIOS pw set", isErased: true, hasKeyboard: true, hasCharger: true)
        let asset = try await store.assets.create(input)
        #expect(asset.id > 0 && asset.assetTag == "SG-1" && asset.name == "ThinkPad" && asset.country == "SG")
        #expect(asset.status == .deployed && asset.condition == .good && asset.notes == "line one\nline two")
        #expect(asset.isErased && asset.hasKeyboard && asset.hasCharger && asset.memory == "32GB")
        #expect(try await store.assets.get(id: asset.id) == asset)
        #expect(try await store.assets.find(identifier: "SN1")?.id == asset.id)
        #expect(try await store.assets.find(identifier: " SG-1\r\n")?.id == asset.id)
        #expect(try await store.assets.find(identifier: "sg-1") == nil)
    }

    @Test(
        "Required fields and bad values give field errors and store nothing",
        arguments: [
            (AssetInput(), ["asset_tag", "country", "name"]),
            (AssetInput(assetTag: "T", name: "   ", country: "SG"), ["name"]),
            (AssetInput(assetTag: "  ", name: "N", country: "SG"), ["asset_tag"]),
            (AssetInput(assetTag: "T", name: "N", country: "XX"), ["country"]),
            (AssetInput(assetTag: "T", name: "N", country: "Singapore"), ["country"]),
            (AssetInput(assetTag: "T", name: "N", country: ""), ["country"]),
            (AssetInput(assetTag: "T", name: "N", status: "BROKEN", country: "SG"), ["status"]),
            (AssetInput(assetTag: "T", name: "N", condition: "MINT", country: "SG"), ["condition"]),
            (AssetInput(assetTag: "T", name: String(repeating: "n", count: 256), country: "SG"), ["name"]),
            (AssetInput(assetTag: "T\u{7}X", serialNum: "S\u{0}1", name: "N", country: "SG"), ["asset_tag", "serial_num"]),
            (AssetInput(assetTag: "T", name: "N", country: "SG", notes: "bell\u{7}"), ["notes"]),
            (AssetInput(assetTag: "T", name: "N", country: "SG", customerId: 999), ["customer_id"])
        ])
    func invalidInput(input: AssetInput, fields: [String]) async throws {
        let store = try TemporaryStore()
        let error = await failure { _ = try await store.assets.create(input) }
        #expect(error?.fields.keys.sorted() == fields)
        #expect(error?.code == .validationError)
        #expect(try await store.count("assets") == 0)
    }

    @Test func assetTagAndSerialNumberAreUnique() async throws {
        let store = try TemporaryStore()
        let first = try await store.addAsset("SG-1", serial: "SN1")
        let other = try await store.addAsset("SG-2", serial: "SN2")
        #expect(await failure { _ = try await store.addAsset("SG-1") } == .duplicate(field: "asset_tag", value: "SG-1"))
        #expect(await failure { _ = try await store.addAsset("SG-3", serial: "SN1") } == .duplicate(field: "serial_num", value: "SN1"))
        #expect(
            await failure { _ = try await store.assets.update(id: other.id, AssetInput(assetTag: "SG-1")) }
                == .duplicate(field: "asset_tag", value: "SG-1"))
        #expect(
            await failure { _ = try await store.assets.update(id: other.id, AssetInput(serialNum: "SN1")) }
                == .duplicate(field: "serial_num", value: "SN1"))
        #expect(try await store.count("assets") == 2)
        #expect(try await store.assets.get(id: other.id).assetTag == "SG-2")
        // Saving an asset with its own tag and serial is no conflict; many assets may lack a serial.
        _ = try await store.assets.update(id: first.id, AssetInput(assetTag: "SG-1", serialNum: "SN1", name: "Renamed"))
        try await store.addAsset("SG-4")
        try await store.addAsset("SG-5")
        #expect(try await store.count("assets", where: "serial_num IS NULL") == 2)
    }

    @Test func theSchemaItselfRefusesDuplicateTagsAndSerials() async throws {
        let store = try TemporaryStore()
        try await store.addAsset("SG-1", serial: "SN1")
        let insert =
            "INSERT INTO assets (asset_tag, serial_num, name, status, country, created_at, updated_at) VALUES (?, ?, 'x', 'IN_STOCK', 'SG', 0, 0)"
        for (tag, serial) in [("SG-1", "OTHER"), ("SG-2", "SN1")] {
            await #expect(throws: DatabaseError.self) {
                try await store.database.writer.write { db in try db.execute(sql: insert, arguments: [tag, serial]) }
            }
        }
        await #expect(throws: DatabaseError.self) {
            try await store.database.writer.write { db in
                try db.execute(
                    sql: "INSERT INTO assets (asset_tag, name, status, country, created_at, updated_at) VALUES ('X', 'x', 'IN_STOCK', 'sg', 0, 0)")
            }
        }
        #expect(try await store.count("assets") == 1)
    }

    @Test func updateChangesOnlyTheFieldsSent() async throws {
        let store = try TemporaryStore()
        let asset = try await store.assets.create(
            AssetInput(
                assetTag: "SG-1", serialNum: "SN1", name: "Laptop", model: "T14",
                country: "SG", location: "HQ"))
        let updated = try await store.assets.update(id: asset.id, AssetInput(status: "REPAIR", location: ""))
        #expect(updated.status == .repair && updated.location == nil && updated.model == "T14" && updated.serialNum == "SN1")
        #expect(updated.updatedAt >= asset.updatedAt && updated.createdAt == asset.createdAt)
        let error = await failure { _ = try await store.assets.update(id: asset.id, AssetInput(name: "", country: "QQ")) }
        #expect(error?.fields.keys.sorted() == ["country", "name"])
        #expect(try await store.assets.get(id: asset.id) == updated)
        #expect(await failure { _ = try await store.assets.update(id: 999, AssetInput(name: "x")) } == .notFound("asset 999"))
    }

    @Test func archiveKeepsTheAssetAndDeleteRemovesIt() async throws {
        let store = try TemporaryStore()
        let asset = try await store.addAsset("SG-1", serial: "SN1")
        let archived = try #require(try await store.assets.delete(id: asset.id, mode: .archive))
        #expect(archived.status == .archived && archived.id == asset.id)
        #expect(try await store.assets.get(id: asset.id).status == .archived)
        #expect(try await store.assets.list(AssetFilter(status: .archived), query: ListQuery()).items.map(\.id) == [asset.id])
        #expect(try await store.assets.delete(id: asset.id, mode: .delete) == nil)
        #expect(await failure { _ = try await store.assets.get(id: asset.id) } == .notFound("asset \(asset.id)"))
        #expect(try await store.count("assets") == 0)
        #expect(await failure { _ = try await store.assets.delete(id: asset.id, mode: .archive) } == .notFound("asset \(asset.id)"))
        // The tag and serial are free again.
        try await store.addAsset("SG-1", serial: "SN1")
    }

    @Test func transferNeedsAnExistingCustomerAndAValidDate() async throws {
        let store = try TemporaryStore()
        let asset = try await store.addAsset("SG-1")
        let acme = try await store.addCustomer("Acme")
        let snapshot = try await store.snapshot()
        let missing = await failure { _ = try await store.assets.transfer(id: asset.id, TransferRequest(customerId: 4242)) }
        #expect(missing?.fields.keys.sorted() == ["customer_id"])
        for date in ["2026-02-30", "12/05/2026", "2026-5-1", "yesterday", "2026-13-01", ""] {
            let error = await failure {
                _ = try await store.assets.transfer(id: asset.id, TransferRequest(customerId: acme.id, effectiveDate: date))
            }
            #expect(error?.fields.keys.sorted() == ["effective_date"], "\(date)")
        }
        #expect(await failure { _ = try await store.assets.transfer(id: 999, TransferRequest(customerId: acme.id)) } == .notFound("asset 999"))
        #expect(try await store.snapshot() == snapshot)

        let moved = try await store.assets.transfer(
            id: asset.id,
            TransferRequest(
                customerId: acme.id, reason: "new hire",
                notes: "desk 4", effectiveDate: "2024-02-29"))
        #expect(moved.customerId == acme.id && moved.customer == "Acme")
        #expect(try await store.count("asset_transfers") == 1)
        #expect(try await store.assets.list(AssetFilter(customerId: acme.id), query: ListQuery()).items.map(\.id) == [asset.id])
    }

    @Test func listFiltersSearchesAndPages() async throws {
        let store = try TemporaryStore()
        for n in 1...30 { try await store.addAsset("SG-\(n)", serial: "S\(n)", status: n % 3 == 0 ? .deployed : .inStock) }
        for n in 1...5 { try await store.addAsset("MY-\(n)", country: "MY") }
        let sg = try await store.assets.list(AssetFilter(country: "sg"), query: ListQuery(perPage: 7))
        #expect(sg.pagination == Pagination(query: ListQuery(perPage: 7), total: 30) && sg.items.count == 7)
        #expect(sg.pagination.lastPage == 5)
        let deployed = try await store.assets.list(AssetFilter(status: .deployed, country: "SG"), query: ListQuery(perPage: 100))
        #expect(deployed.items.count == 10 && deployed.items.allSatisfy { $0.status == .deployed })
        let search = try await store.assets.list(AssetFilter(), query: ListQuery(search: "S2"))
        #expect(
            Set(search.items.map(\.assetTag)) == ["SG-2", "SG-20", "SG-21", "SG-22", "SG-23", "SG-24", "SG-25", "SG-26", "SG-27", "SG-28", "SG-29"])
        #expect(
            await failure { _ = try await store.assets.list(AssetFilter(country: "XX"), query: ListQuery()) }?.fields.keys.sorted() == ["country"])
    }
}
