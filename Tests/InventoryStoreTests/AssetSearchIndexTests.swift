import Foundation
import GRDB
import InventoryCore
import Testing

@testable import InventoryStore

/// The assets' search index looks a long text up by its last characters first, and by the whole
/// text when those are held by too many assets. Either way the search keeps exactly the assets
/// whose fields contain the whole text.
@Suite("Asset search through the index")
struct AssetSearchIndexTests {
    /// 2,100 assets named "… Common tail" (more than `narrowLimit` hold its last six
    /// characters), one "Unique Common tail", two tags that end alike, and a name with quotes.
    static func store() async throws -> TemporaryStore {
        let store = try TemporaryStore()
        var rows = (0..<2_100).map {
            ImportRow(line: $0 + 2, input: AssetInput(assetTag: String(format: "AT-%05d", $0), name: "Shelf \($0) Common tail", country: "SG"))
        }
        for (n, (tag, name)) in [
            ("ZZ-LONG-123456", "Alpha"), ("QQ-OTHER-123456", "Beta"), ("SAY-1", "Say \"hello\" there"),
            ("U-1", "Unique Common tail")
        ].enumerated() {
            rows.append(ImportRow(line: 2_102 + n, input: AssetInput(assetTag: tag, name: name, country: "SG")))
        }
        #expect(try await store.assets.importAssets(rows) { _, _ in } == 2_104)
        try await store.assets.catchUpSearchIndex()
        return store
    }

    static func tags(_ store: TemporaryStore, _ text: String) async throws -> (tags: [String], total: Int) {
        let page = try await store.assets.list(AssetFilter(), query: ListQuery(search: text, perPage: 100))
        return (page.items.map(\.assetTag), page.pagination.total)
    }

    @Test func aLongTextIsFoundByItsEndAndKeptWhole() async throws {
        let store = try await Self.store()
        // The last six characters, "123456", are held by both tags; only one holds the whole.
        #expect(try await Self.tags(store, "ZZ-LONG-123456") == (["ZZ-LONG-123456"], 1))
        #expect(try await Self.tags(store, "zz-long-123456") == (["ZZ-LONG-123456"], 1), "case folded")
        #expect(try await Self.tags(store, "-123456") == (["ZZ-LONG-123456", "QQ-OTHER-123456"], 2))
        #expect(try await Self.tags(store, "XX-LONG-123456").total == 0)
        // "n tail" is held by 2,101 assets: the whole text is looked up instead.
        #expect(try await Self.tags(store, "Unique Common tail") == (["U-1"], 1))
        #expect(try await Self.tags(store, "Common tail").total == 2_101)
        #expect(try await Self.tags(store, "Shelf 2099 Common tail") == (["AT-02099"], 1))
        #expect(try await Self.tags(store, "\"hello\" there") == (["SAY-1"], 1), "quotes are plain characters")
    }

    @Test func theIndexHandsBackTheFewCandidatesOfALongText() async throws {
        let store = try await Self.store()
        try await store.database.writer.read { db in
            let narrow = try #require(try AssetSearchIndex.candidates(db, "ZZ-LONG-123456"))
            let ids = try Int64.fetchAll(db, sql: "SELECT value FROM json_each(?)", arguments: [narrow.argument])
            #expect(ids.count == 2, "the two assets holding the last six characters")
            let whole = try #require(try AssetSearchIndex.candidates(db, "Unique Common tail"))
            #expect(try Int64.fetchAll(db, sql: "SELECT value FROM json_each(?)", arguments: [whole.argument]).count == 1)
            #expect(try AssetSearchIndex.candidates(db, "ab") == nil, "too short for a trigram")
        }
    }
}
