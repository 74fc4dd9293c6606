import InventoryCore
import Testing

@Suite struct CSVReaderTests {
    func records(_ text: String) -> ([CSVReader.Record], CSVReader.Problem?) {
        var reader = CSVReader(bytes: Array(text.utf8))
        var out: [CSVReader.Record] = []
        while let record = reader.next() { out.append(record) }
        return (out, reader.problem)
    }

    @Test func quotedFieldsMayHoldCommasQuotesAndLineBreaks() {
        let (rows, problem) = records("a,b\r\n\"x,1\",\"say \"\"hi\"\"\"\n\"two\nlines\",z\nlast,row")
        #expect(problem == nil)
        #expect(rows.map(\.fields) == [["a", "b"], ["x,1", "say \"hi\""], ["two\nlines", "z"], ["last", "row"]])
        #expect(rows.map(\.line) == [1, 2, 3, 5], "a record is numbered by the line it starts on")
    }

    @Test func byteOrderMarkIsSkipped() {
        let (rows, _) = records("\u{FEFF}asset_tag,name\nA,B\n")
        #expect(rows.first?.fields == ["asset_tag", "name"])
    }

    @Test(arguments: [
        ("a,b\n\"open,c\n", CSVReader.Problem.unterminatedQuote(line: 2)),
        ("a,b\nx\"y,c\n", CSVReader.Problem.strayQuote(line: 2))
    ])
    func malformedInputNamesTheLine(_ text: String, _ expected: CSVReader.Problem) {
        #expect(records(text).1 == expected)
    }

    @Test func bytesThatAreNotUTF8NameTheLine() {
        var reader = CSVReader(bytes: Array("a,b\n".utf8) + [0x41, 0xFF, 0x2C, 0x42, 0x0A])
        _ = reader.next()
        #expect(reader.next() == nil)
        #expect(reader.problem == .notUTF8(line: 2))
    }
}

@Suite struct AssetImportTests {
    @Test func rowsCarryTheirLinesAndFields() throws {
        let rows = try AssetImport.rows(fromCSV: Array("asset_tag,name,country,is_erased\nT-1,One,sg,yes\n\nT-2,Two,MY,0\n".utf8))
        #expect(rows.map(\.line) == [2, 4])
        #expect(rows[0].input.assetTag == "T-1")
        #expect(rows[0].input.isErased == true)
        #expect(rows[1].input.isErased == false)
    }

    @Test func unknownAndMissingColumnsAreRefusedOnLineOne() {
        #expect(throws: ValidationError.self) { try AssetImport.rows(fromCSV: Array("asset_tag,colour\nT,red\n".utf8)) }
        do {
            _ = try AssetImport.rows(fromCSV: Array("asset_tag,name\nT,N\n".utf8))
            Issue.record("a file without the country column must be refused")
        } catch {
            #expect(error.fields["line 1"]?.contains { $0.contains("country") } == true)
        }
    }

    @Test func fieldCountAndFlagProblemsAreListedByLine() {
        do {
            _ = try AssetImport.rows(fromCSV: Array("asset_tag,name,country,has_charger\nA,B,SG\nC,D,SG,maybe\n".utf8))
            Issue.record("bad rows must be refused")
        } catch {
            #expect(error.fields.keys.sorted() == ["line 2", "line 3"])
        }
    }
}
