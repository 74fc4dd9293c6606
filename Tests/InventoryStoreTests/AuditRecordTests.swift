import Foundation
import InventoryCore
import InventoryStore
import Testing

@Suite("An audit's record is not rewritten by later inventory changes")
struct AuditRecordTests {
    private func reportJSON(_ store: TemporaryStore, _ auditID: AuditID) async throws -> [[String: Any]] {
        let box = DataBox()
        try await store.audits().report(auditID: auditID, format: .json) { box.append($0) }
        let object = try #require(try JSONSerialization.jsonObject(with: box.data) as? [String: Any])
        return try #require(object["assets"] as? [[String: Any]])
    }

    @Test("Edits and deletes after the end leave the report, summary and lists as they were")
    func theEndedRecordStays() async throws {
        let store = try TemporaryStore()
        let kept = try await store.addAsset("A1", serial: "S1", name: "Laptop one")
        let gone = try await store.addAsset("A2", name: "Laptop two")
        let abroad = try await store.addAsset("M1", name: "Mac abroad", country: "MY")
        let audit = try await store.audits().start(country: "SG", by: alice)
        _ = try await store.audits().record(ScanRequest(identifier: "A1", auditId: audit.id))
        _ = try await store.audits().record(ScanRequest(identifier: "M1", auditId: audit.id))
        _ = try await store.audits().end(auditID: audit.id, by: alice)
        let before = try await reportJSON(store, audit.id)

        _ = try await store.assets.update(
            id: kept.id,
            AssetInput(
                assetTag: "A1-NEW", serialNum: "S1-NEW", name: "Renamed",
                status: "DEPLOYED", country: "SG"))
        _ = try await store.assets.update(id: abroad.id, AssetInput(assetTag: "M1", name: "Mac renamed", status: "IN_STOCK", country: "MY"))
        _ = try await store.assets.delete(id: gone.id, mode: .delete)

        let after = try await reportJSON(store, audit.id)
        #expect(after.count == 3)
        for (old, new) in zip(before, after) {
            for key in ["identifier", "asset_tag", "serial_num", "name", "outcome"] {
                #expect("\(old[key] ?? "nil")" == "\(new[key] ?? "nil")", "\(key) changed: \(old) → \(new)")
            }
        }
        #expect(after.compactMap { $0["name"] as? String }.sorted() == ["Laptop one", "Laptop two", "Mac abroad"])
        let summary = try await store.audits().summary(auditID: audit.id)
        #expect(summary.missing.first?.name == "Laptop two", "a deleted asset keeps its recorded fields")
        #expect(summary.unexpected.first?.name == "Mac abroad")
        let scanned = try await store.audits().details(auditID: audit.id, list: .scanned, query: ListQuery())
        #expect(scanned.items.first?.assetTag == "A1" && scanned.items.first?.serialNum == "S1")
        let found = try await store.audits().details(auditID: audit.id, list: .all, query: ListQuery(search: "wo"))
        #expect(found.items.map(\.name) == ["Laptop two"], "search reads the recorded fields too")
        // A text of 3 or more characters is served by the assets' search index: it finds an
        // entry when the asset as it is now holds the text too, so not a deleted asset's entry,
        // nor one renamed since (docs/office.md, "Search").
        for text in ["Laptop two", "Laptop"] {
            let indexed = try await store.audits().details(auditID: audit.id, list: .all, query: ListQuery(search: text))
            #expect(indexed.items.isEmpty, "\(text): \(indexed.items.map(\.name))")
        }
    }

    @Test("With case-insensitive tags, tags or serials that differ only in case cannot both exist")
    func caseInsensitiveTagsAreUnique() async throws {
        let store = try TemporaryStore()
        let assets = SQLiteAssetService(database: store.database, caseSensitive: false)
        let first = try await assets.create(AssetInput(assetTag: "Tag-1", serialNum: "Ser-1", name: "One", status: "IN_STOCK", country: "SG"))
        let tag = await failure { _ = try await assets.create(AssetInput(assetTag: "TAG-1", name: "Two", status: "IN_STOCK", country: "SG")) }
        #expect(tag == .duplicate(field: "asset_tag", value: "TAG-1"))
        let serial = await failure {
            _ = try await assets.create(AssetInput(assetTag: "Tag-2", serialNum: "SER-1", name: "Two", status: "IN_STOCK", country: "SG"))
        }
        #expect(serial == .duplicate(field: "serial_num", value: "SER-1"))
        let second = try await assets.create(AssetInput(assetTag: "Tag-2", name: "Two", status: "IN_STOCK", country: "SG"))
        let renamed = await failure {
            _ = try await assets.update(id: second.id, AssetInput(assetTag: "tag-1", name: "Two", status: "IN_STOCK", country: "SG"))
        }
        #expect(renamed?.fields.isEmpty == true && renamed != nil)
        _ = try await assets.update(id: first.id, AssetInput(assetTag: "TAG-1", serialNum: "Ser-1", name: "One", status: "IN_STOCK", country: "SG"))

        let csvRows = [
            ImportRow(line: 2, input: AssetInput(assetTag: "NEW-1", name: "N", status: "IN_STOCK", country: "SG")),
            ImportRow(line: 3, input: AssetInput(assetTag: "new-1", name: "N", status: "IN_STOCK", country: "SG")),
            ImportRow(line: 4, input: AssetInput(assetTag: "tag-2", name: "N", status: "IN_STOCK", country: "SG"))
        ]
        let imported = await failure { _ = try await assets.importAssets(csvRows) { _, _ in } }
        let lines = imported?.fields ?? [:]
        #expect(lines["line 3"]?.first?.contains("repeats line 2") == true, "\(lines)")
        #expect(try await store.count("assets") == 2)

        let sensitive = SQLiteAssetService(database: store.database, caseSensitive: true)
        _ = try await sensitive.create(AssetInput(assetTag: "tag-2", name: "Three", status: "IN_STOCK", country: "SG"))
        #expect(try await store.count("assets") == 3, "a case-sensitive inventory keeps both spellings")
    }
}

/// Collects a report's pieces.
final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = Data()
    func append(_ data: Data) { lock.withLock { storage.append(data) } }
    var data: Data { lock.withLock { storage } }
}
