import InventoryCore
import TestKit
import Testing

@Suite("CSV read in blocks")
struct CSVStreamTests {
    static let samples = [
        "a,b\r\n\"x,1\",\"say \"\"hi\"\"\"\n\"two\nlines\",z\nlast,row",
        "\u{FEFF}asset_tag,name\r\nA,B\r\n\r\nC,\"\"\r\n",
        "a,b\n\"open,c\n",
        "a,b\nx\"y,c\n",
        "a,b\n\"q\"x,c\n",
        "a,\"b\"\"\"\n\"\"\"\",\r\r\n"
    ]

    static func whole(_ text: String) -> ([CSVReader.Record], CSVReader.Problem?) {
        var reader = CSVReader(bytes: Array(text.utf8))
        var out: [CSVReader.Record] = []
        while let record = reader.next() { out.append(record) }
        return (out, reader.problem)
    }

    static func inBlocks(_ bytes: [UInt8], size: Int) -> ([CSVReader.Record], CSVReader.Problem?) {
        var reader = CSVReader()
        var out: [CSVReader.Record] = []
        for start in stride(from: 0, to: bytes.count, by: size) {
            reader.append(bytes[start..<min(start + size, bytes.count)])
            while let record = reader.next() { out.append(record) }
        }
        reader.finish()
        while let record = reader.next() { out.append(record) }
        return (out, reader.problem)
    }

    @Test(arguments: samples, [1, 2, 3, 5, 64])
    func blocksOfAnySizeReadAsTheWholeDoes(_ text: String, _ size: Int) {
        let expected = Self.whole(text)
        let streamed = Self.inBlocks(Array(text.utf8), size: size)
        #expect(streamed.0 == expected.0)
        #expect(streamed.1 == expected.1)
    }

    @Test func aQuoteThatNeverClosesStopsTheReaderInsteadOfHoldingTheFile() {
        var reader = CSVReader()
        reader.append(Array("a,b\n\"".utf8))
        _ = reader.next()
        let block = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
        for _ in 0..<20 {
            reader.append(block)
            #expect(reader.next() == nil)
        }
        #expect(reader.problem == .tooLong(line: 2))
    }

    /// Blocks of 7 bytes: a field, a quote or a line break is often cut in two.
    static let blockSize = 7

    @Test func rowsComeInChunksWithTheirLinesAndTheirReaderProblems() async throws {
        // The last line ends the file without a line break.
        let csv =
            CSVFixture("asset_tag", "name", "country", "has_charger").rows(1...25) { ["T-\($0)", "Laptop", "SG", "yes"] }
            .line("T-26,Laptop").row("T-27", "Lap\ntop", "MY", "maybe").line("").text + "T-28,Last,SG,no"
        var chunks: [[ImportRow]] = []
        for try await chunk in try await AssetImport.chunks(of: CSVFixture.blocks(csv, size: Self.blockSize), chunkSize: 10) { chunks.append(chunk) }
        #expect(chunks.map(\.count) == [10, 10, 8])
        let rows = chunks.flatMap { $0 }
        #expect(rows.map(\.line) == Array(2...28) + [31])
        #expect(rows[0].input.assetTag == "T-1" && rows[0].input.hasCharger == true)
        #expect(rows[25].problems == ["has 2 fields; the header has 4"])
        #expect(rows[26].input.name == "Lap\ntop" && rows[26].problems.first?.contains("has_charger") == true)
        #expect(rows[27].input.hasCharger == false && rows[27].problems.isEmpty)
    }

    @Test func aProblemThatStopsTheReaderEndsTheStreamWithItsLine() async throws {
        let csv = "asset_tag,name,country\nA,B,SG\nC,\"D,SG\n"
        var rows: [ImportRow] = []
        for try await chunk in try await AssetImport.chunks(of: CSVFixture.blocks(csv, size: Self.blockSize)) { rows += chunk }
        #expect(rows.map(\.line) == [2, 3])
        #expect(rows.last?.problems == ["opens a quoted field that never closes"])
    }

    @Test(arguments: ["", "asset_tag,colour\nT,red\n", "asset_tag,name\nT,N\n", "asset_tag,name,country,name\n"])
    func aBadHeaderFailsBeforeAnyRow(_ csv: String) async throws {
        await #expect(throws: InventoryError.self) { _ = try await AssetImport.chunks(of: CSVFixture.blocks(csv, size: Self.blockSize)) }
        do { _ = try await AssetImport.chunks(of: CSVFixture.blocks(csv, size: Self.blockSize)) } catch let error as InventoryError {
            guard case .invalid(let problems) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(problems.fields.keys.allSatisfy { $0 == "line 1" || $0 == "file" })
        }
    }
}
