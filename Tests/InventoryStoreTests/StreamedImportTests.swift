import Foundation
import InventoryCore
import InventoryStore
import TestKit
import Testing

/// Imports that arrive as CSV in blocks and reach the store in several chunks.
@Suite("Streamed asset import")
struct StreamedImportTests {
    /// `count` good rows after the header: row n is on line n + 2, tag S-n, serial SN-n, in SG
    /// and MY by turns.
    static func csv(_ count: Int) -> CSVFixture {
        CSVFixture("asset_tag", "serial_num", "name", "country", "customer_id").assets(0..<count, tag: "S-", serial: "SN-", countries: ["SG", "MY"])
    }

    @Test func aFileOfManyChunksIsImportedWhole() async throws {
        let store = try TemporaryStore()
        let log = ProgressLog()
        let count = try await store.assets.importAssets(csv: Self.csv(25_000).blocks()) { log.record($0, 0) }
        #expect(count == 25_000)
        #expect(try await store.count("assets") == 25_000)
        #expect(try await store.assets.find(identifier: "SN-24999")?.assetTag == "S-24999")
        let done = log.calls.map(\.done)
        #expect(done.last == 25_000 && done == done.sorted() && done.count >= 3, "progress after each chunk: \(done)")
    }

    @Test func badRowsInSeveralChunksAreAllReportedByLineAndNothingIsImported() async throws {
        let store = try TemporaryStore()
        try await store.addAsset("EXISTING", serial: "EXISTING-SN")
        let customer = try await store.addCustomer()
        let before = try await store.snapshot()
        let bad: [Int: String] = [
            12_000: "S-7,SN-X12000,Laptop,SG,", // tag repeats line 9, in another chunk
            12_500: "S-12500,SN-100,Laptop,SG,", // serial repeats line 102
            18_000: "EXISTING,SN-X18000,Laptop,SG,", // tag already in the inventory
            18_001: "S-X18001,existing-sn,Laptop,SG,", // a serial differing in case is another serial here
            21_000: "S-X21000,EXISTING-SN,Laptop,SG,", // serial already in the inventory
            22_000: "S-X22000,,Laptop,QQ,", // not a country
            23_000: "S-X23000,,Laptop,SG,4242", // not a customer
            23_001: "S-X23001,,Laptop,SG,\(customer.id)", // a known customer is fine
            24_000: "S-X24000,,Laptop", // too few fields
            24_999: "S-X24999,,Laptop,SG,abc" // customer_id not a number
        ]
        let error = await failure {
            _ = try await store.assets.importAssets(csv: Self.csv(25_000).replacing(bad).blocks()) { _ in }
        }
        let fields = try #require(error?.fields)
        #expect(
            fields.keys.sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count }
                == ["line 12000", "line 12500", "line 18000", "line 21000", "line 22000", "line 23000", "line 24000", "line 24999"])
        #expect(fields["line 12000"] == ["asset_tag 'S-7' repeats line 9"])
        #expect(fields["line 12500"] == ["serial_num 'SN-100' repeats line 102"])
        #expect(fields["line 18000"] == ["asset_tag 'EXISTING' is already in the inventory"])
        #expect(fields["line 21000"] == ["serial_num 'EXISTING-SN' is already in the inventory"])
        #expect(fields["line 22000"]?.first?.contains("country") == true)
        #expect(fields["line 23000"] == ["customer_id 4242 is not a customer"])
        #expect(fields["line 24000"] == ["has 3 fields; the header has 5"])
        #expect(fields["line 24999"]?.first?.contains("customer_id 'abc' is not a number") == true)
        #expect(try await store.snapshot() == before)
    }

    @Test func aRepeatIsNamedByTheFirstLineEvenWhenTheRowsAreFarApart() async throws {
        let store = try TemporaryStore()
        let rows =
            [ImportRow(line: 7, input: AssetInput(assetTag: "A", serialNum: "X", name: "N", country: "SG"))]
            + (0..<15_000).map { ImportRow(line: $0 + 8, input: AssetInput(assetTag: "F-\($0)", name: "N", country: "SG")) }
            + [
                ImportRow(line: 40_000, input: AssetInput(assetTag: "B", serialNum: "X", name: "N", country: "SG")),
                ImportRow(line: 40_001, input: AssetInput(assetTag: "A", name: "N", country: "SG"))
            ]
        let fields = try #require(await failure { _ = try await store.assets.importAssets(rows) { _, _ in } }?.fields)
        #expect(fields == ["line 40000": ["serial_num 'X' repeats line 7"], "line 40001": ["asset_tag 'A' repeats line 7"]])
        #expect(try await store.count("assets") == 0)
    }

    @Test func caseInsensitiveTagsRepeatAcrossChunks() async throws {
        let store = try TemporaryStore()
        try await store.addAsset("Old-1", serial: "Old-SN")
        let assets = SQLiteAssetService(database: store.database, caseSensitive: false)
        let csv = Self.csv(12_000).replacing([
            3: "Tag-1,Ser-1,Laptop,SG,", 11_000: "TAG-1,,Laptop,SG,",
            11_001: "T-2,SER-1,Laptop,SG,", 11_002: "old-1,,Laptop,SG,", 11_003: "T-4,OLD-sn,Laptop,SG,"
        ])
        let fields = try #require(await failure { _ = try await assets.importAssets(csv: csv.blocks()) { _ in } }?.fields)
        #expect(
            fields == [
                "line 11000": ["asset_tag 'TAG-1' repeats line 3"], "line 11001": ["serial_num 'SER-1' repeats line 3"],
                "line 11002": ["asset_tag 'old-1' is already in the inventory"],
                "line 11003": ["serial_num 'OLD-sn' is already in the inventory"]
            ])
        #expect(try await store.count("assets") == 1)
    }

    @Test func manyBadRowsAcrossChunksAreCountedBeyondTheListed() async throws {
        let store = try TemporaryStore()
        var bad: [Int: String] = [:]
        for line in stride(from: 2, to: 30_002, by: 100) { bad[line] = "B-\(line),,Laptop,ZZ," }
        let fields = try #require(
            await failure {
                _ = try await store.assets.importAssets(csv: Self.csv(30_000).replacing(bad).blocks()) { _ in }
            }?.fields)
        #expect(fields.keys.filter { $0.hasPrefix("line ") }.count == 50)
        #expect(fields["line 2"] != nil && fields["line 4902"] != nil && fields["line 5002"] == nil)
        #expect(fields["more"] == ["250 further rows have problems"])
        #expect(try await store.count("assets") == 0)
    }

    struct ReadFailure: Error {}

    @Test func aStreamThatFailsMidwayLeavesNothingAndItsErrorIsRethrown() async throws {
        let store = try TemporaryStore()
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self)
        continuation.yield(Array(Self.csv(15_000).text.utf8))
        continuation.finish(throwing: ReadFailure())
        await #expect(throws: ReadFailure.self) { _ = try await store.assets.importAssets(csv: stream) { _ in } }
        #expect(try await store.count("assets") == 0)
        // The writer is free again.
        try await store.addAsset("AFTER")
        #expect(try await store.count("assets") == 1)
    }

    @Test func otherWritesWaitForTheImportAndThenProceed() async throws {
        let store = try TemporaryStore()
        async let imported = store.assets.importAssets(csv: Self.csv(20_000).blocks(size: 512)) { _ in }
        async let created = store.addAsset("BESIDE")
        #expect(try await imported == 20_000)
        #expect(try await created.assetTag == "BESIDE")
        #expect(try await store.count("assets") == 20_001)
    }
}
