import Foundation
import InventoryCore
import InventoryStore
import Testing

/// Collects progress callbacks, which come from the database's thread.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(done: Int, total: Int)] = []
    func record(_ done: Int, _ total: Int) { lock.withLock { entries.append((done, total)) } }
    var calls: [(done: Int, total: Int)] { lock.withLock { entries } }
}

@Suite("Asset import")
struct ImportTests {
    static func row(
        _ line: Int, _ tag: String?, serial: String? = nil, name: String? = "Laptop", country: String? = "SG",
        status: String? = nil, customerId: Int64? = nil
    ) -> ImportRow {
        ImportRow(
            line: line,
            input: AssetInput(
                assetTag: tag, serialNum: serial, name: name, status: status, country: country,
                customerId: customerId))
    }

    static func rows(_ count: Int, prefix: String = "IMP") -> [ImportRow] {
        (0..<count).map { row($0 + 2, "\(prefix)-\($0)", serial: "\(prefix)-SN-\($0)", country: $0 % 2 == 0 ? "SG" : "my") }
    }

    @Test func everyRowIsImportedAndProgressReachesTheTotal() async throws {
        let store = try TemporaryStore()
        let log = ProgressLog()
        let count = try await store.assets.importAssets(Self.rows(12_000)) { log.record($0, $1) }
        #expect(count == 12_000)
        #expect(try await store.count("assets") == 12_000)
        #expect(try await store.count("assets", where: "country = 'MY'") == 6_000)
        let calls = log.calls
        #expect(calls.last?.done == 12_000 && calls.allSatisfy { $0.total == 12_000 })
        #expect(calls.map(\.done) == calls.map(\.done).sorted(), "progress never goes back")
        #expect(try await store.assets.find(identifier: "IMP-SN-11999")?.assetTag == "IMP-11999")
    }

    /// An import leaves its rows out of the search index (the insert trigger is paused from its
    /// first id), so a million rows import at full speed; the index takes them after the commit
    /// (`catchUpSearchIndex`). Meanwhile searches read the rows and find them, and edits, deletes
    /// and new assets leave the index right once it has caught up.
    @Test func importedAssetsAreIndexedAfterTheImportsCommit() async throws {
        let store = try TemporaryStore()
        let assets = SQLiteAssetService(database: store.database, searchCatchUp: false)
        try await store.addAsset("EXISTING")
        #expect(try await assets.importAssets(Self.rows(3_000)) { _, _ in } == 3_000)
        #expect(try await store.count("assets_fts_paused") == 1, "the rows wait for the index after the commit")
        func tags(_ text: String) async throws -> [String] {
            try await assets.list(AssetFilter(), query: ListQuery(search: text, perPage: 100)).items.map(\.assetTag)
        }
        func indexed(_ text: String) async throws -> Int {
            try await store.database.writer.read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM assets_fts WHERE assets_fts MATCH ?", arguments: ["\"\(text)\""]) ?? -1
            }
        }
        #expect(try await indexed("IMP-SN-2999") == 0, "the index does not hold the imported rows yet")
        #expect(try await tags("p-sn-2999") == ["IMP-2999"], "found by reading the rows")
        #expect(try await tags("MP-299") == ["IMP-299"] + (2990...2999).map { "IMP-\($0)" })
        // Changes while the index waits: an edit, a delete, a new asset.
        let edited = try #require(try await assets.find(identifier: "IMP-5"))
        _ = try await assets.update(id: edited.id, AssetInput(name: "Projector Zeta"))
        let deleted = try #require(try await assets.find(identifier: "IMP-6"))
        _ = try await assets.delete(id: deleted.id, mode: .delete)
        try await store.addAsset("LATE-7")
        #expect(try await tags("ate-7") == ["LATE-7"])

        try await assets.catchUpSearchIndex()
        #expect(try await store.count("assets_fts_paused") == 0)
        #expect(try await indexed("IMP-SN-2999") == 1)
        #expect(try await indexed("Projector Zeta") == 1)
        #expect(try await !tags("IMP-SN-6").contains("IMP-6"), "the deleted IMP-6 is gone")
        #expect(try await indexed("LATE-7") == 1)
        #expect(try await tags("p-sn-2999") == ["IMP-2999"])
        #expect(try await tags("ojector ze") == ["IMP-5"])
        #expect(try await tags("ate-7") == ["LATE-7"])
        // The insert trigger, set aside during the import, is back: a new asset is indexed at once.
        try await store.addAsset("AFTER-9")
        #expect(try await indexed("AFTER-9") == 1, "the import put the index's insert trigger back")
        // The index agrees with the rows: FTS5's own check of an external-content index.
        try await store.database.writer.write { db in
            try db.execute(sql: "INSERT INTO assets_fts (assets_fts, rank) VALUES ('integrity-check', 1)")
        }

        let refused = await failure { _ = try await assets.importAssets([Self.row(2, "NEW-1"), Self.row(3, "EXISTING")]) { _, _ in } }
        #expect(refused?.fields.keys.sorted() == ["line 3"])
        #expect(try await store.count("assets_fts_paused") == 0, "a refused import leaves no pause")
        #expect(try await tags("NEW-1") == [])
        try await store.addAsset("LATER-8")
        #expect(try await indexed("LATER-8") == 1, "an asset added once the index caught up is indexed by the trigger")
    }

    @Test func badRowsAreReportedByLineNumberAndNothingIsImported() async throws {
        let store = try TemporaryStore()
        try await store.addAsset("EXISTING")
        let rows = [
            Self.row(2, "A-1", serial: "SN-A"),
            Self.row(3, "A-1"), // tag repeats line 2
            Self.row(4, "A-3", name: nil), // name missing
            Self.row(5, "A-4", country: "XX"), // unknown country
            Self.row(6, "A-5", status: "BROKEN"), // unknown status
            Self.row(7, nil), // asset_tag missing
            Self.row(8, "A-7", serial: "SN-A"), // serial repeats line 2
            Self.row(9, "A-8\u{7}X"), // control character in the tag
            Self.row(10, "A-9")
        ]
        let error = await failure { _ = try await store.assets.importAssets(rows) { _, _ in } }
        let fields = try #require(error?.fields)
        #expect(fields.keys.sorted() == ["line 3", "line 4", "line 5", "line 6", "line 7", "line 8", "line 9"])
        #expect(fields["line 3"]?.first?.contains("repeats line 2") == true)
        #expect(fields["line 4"]?.first?.contains("name") == true)
        #expect(fields["line 5"]?.first?.contains("country") == true)
        #expect(fields["line 6"]?.first?.contains("status") == true)
        #expect(fields["line 7"]?.first?.contains("asset_tag") == true)
        #expect(fields["line 8"]?.first?.contains("serial_num") == true)
        #expect(error?.errorDescription?.contains("line 5") == true)
        #expect(try await store.count("assets") == 1)
    }

    @Test func rowsThatClashWithTheInventoryAreReportedByLine() async throws {
        let store = try TemporaryStore()
        try await store.addAsset("EXISTING", serial: "EXISTING-SN")
        let rows = [
            Self.row(2, "B-1"), Self.row(3, "EXISTING"), Self.row(4, "B-3", serial: "EXISTING-SN"),
            Self.row(5, "B-4", customerId: 4242), Self.row(6, "B-5")
        ]
        let error = await failure { _ = try await store.assets.importAssets(rows) { _, _ in } }
        let fields = try #require(error?.fields)
        #expect(fields.keys.sorted() == ["line 3", "line 4", "line 5"])
        #expect(fields["line 3"]?.first?.contains("already in the inventory") == true)
        #expect(fields["line 4"]?.first?.contains("already in the inventory") == true)
        #expect(fields["line 5"]?.first?.contains("customer") == true)
        #expect(try await store.count("assets") == 1)
    }

    @Test func aBadRowNearTheEndOfALargeFileLeavesNothingBehind() async throws {
        // The first 5,000 rows are written before the clash is found; the transaction must
        // roll them back.
        let store = try TemporaryStore()
        try await store.addAsset("EXISTING")
        let before = try await store.snapshot()
        var rows = Self.rows(6_000)
        rows[5_990] = Self.row(5_992, "EXISTING")
        let log = ProgressLog()
        let error = await failure { _ = try await store.assets.importAssets(rows) { log.record($0, $1) } }
        #expect(error?.fields.keys.sorted() == ["line 5992"])
        #expect(try await store.snapshot() == before)
        #expect(log.calls.last.map { $0.done < $0.total } ?? true, "a failed import never reports completion")
        // The same file, corrected, then imports whole.
        rows[5_990] = Self.row(5_992, "FIXED")
        #expect(try await store.assets.importAssets(rows) { _, _ in } == 6_000)
        #expect(try await store.count("assets") == 6_001)
    }

    @Test func manyBadRowsAreListedUpToALimitWithACount() async throws {
        let store = try TemporaryStore()
        let rows = (0..<120).map { Self.row($0 + 2, "C-\($0)", country: "ZZ") }
        let fields = try #require(await failure { _ = try await store.assets.importAssets(rows) { _, _ in } }?.fields)
        #expect(fields.keys.filter { $0.hasPrefix("line ") }.count == 50)
        #expect(fields["line 2"] != nil && fields["line 51"] != nil && fields["line 52"] == nil)
        #expect(fields["more"]?.first?.contains("70") == true)
        #expect(try await store.count("assets") == 0)
    }

    @Test func anEmptyImportImportsNothing() async throws {
        let store = try TemporaryStore()
        #expect(try await store.assets.importAssets([]) { _, _ in } == 0)
        #expect(try await store.count("assets") == 0)
    }
}
