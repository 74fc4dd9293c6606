import Foundation
import InventoryCore
import Testing

@Suite struct ValueRulesTests {
    @Test(arguments: [
        ("  SG-1\t\r", "SG-1"), ("\u{0}\u{1B}TAG\u{7F}", "TAG"), ("ÄÖ-1", "ÄÖ-1")
    ])
    func identifiersAreTrimmedOfWhitespaceAndControlCharacters(_ raw: String, _ expected: String) throws {
        #expect(try Identifier.normalize(raw) == expected)
    }

    @Test(arguments: ["", "   ", "A\u{7}B", String(repeating: "x", count: 129), String(repeating: "é", count: 65)])
    func impossibleIdentifiersAreRefused(_ raw: String) {
        #expect(throws: ValidationError.self) { try Identifier.normalize(raw) }
    }

    @Test(arguments: [("sg", "SG"), (" my ", "MY")])
    func countriesAreStoredInUpperCase(_ raw: String, _ expected: String) throws {
        #expect(try Country.normalize(raw) == expected)
    }

    @Test(arguments: ["XX", "SGP", "", "S1"])
    func unknownCountriesAreRefused(_ raw: String) {
        #expect(throws: ValidationError.self) { try Country.normalize(raw) }
    }

    @Test(arguments: [
        (0, 0, 100.0), (3, 1, 33.33), (3, 2, 66.66), (100_000, 99_999, 99.99), (8, 8, 100.0)
    ])
    func completionIsScannedOverTotalRoundedDown(_ total: Int, _ scanned: Int, _ percent: Double) {
        let progress = AuditProgress(totalAssets: total, scannedCount: scanned, unexpectedCount: 4)
        #expect(progress.completionPercentage == percent)
        #expect(progress.missingCount == total - scanned)
        #expect(progress.unexpectedCount == 4)
    }

    @Test(arguments: [
        ("plain", "plain"), ("a,b", "\"a,b\""), ("say \"x\"", "\"say \"\"x\"\"\""), ("two\nlines", "\"two\nlines\""),
        ("=SUM(A1)", "'=SUM(A1)"), ("+1", "'+1"), ("-2", "'-2"), ("@cmd", "'@cmd"), ("=a,b", "\"'=a,b\"")
    ])
    func csvCellsAreQuotedAndFormulasDefused(_ text: String, _ expected: String) {
        var buffer: [UInt8] = []
        CSV.appendCell(text, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == expected)
    }

    @Test func jsonStringsEscapeWhatRFC8259Requires() throws {
        var buffer: [UInt8] = []
        JSONText.appendString("q\"b\\n\n\u{1}é", to: &buffer)
        let decoded = try JSONDecoder().decode(String.self, from: Data(buffer))
        #expect(decoded == "q\"b\\n\n\u{1}é")
    }

    @Test func assetInputCollectsEveryFieldError() {
        do {
            _ = try AssetInput(assetTag: "", status: "LOST", condition: "MINT", country: "ZZ").makeAsset()
            Issue.record("invalid input must be refused")
        } catch {
            #expect(Set(error.fields.keys) == ["asset_tag", "name", "status", "condition", "country"])
        }
    }
}
