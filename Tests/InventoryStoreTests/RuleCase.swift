import InventoryCore
import Testing

/// One row of the rules table: scans made first, the scan under test, and what it must give.
struct RuleCase: Sendable, CustomTestStringConvertible {
    var name: String
    var caseSensitive = true
    /// Scanned before, in order; scan `i` is `RulesFixture.priorScan(i)`.
    var before: [String] = []
    var identifier: String
    var status: ScanStatus
    var reason: UnexpectedReason? = nil
    /// The asset matched, by tag (nil for an unknown identifier).
    var assetTag: String?
    /// Which earlier scan is reported as the first one.
    var firstScan: Int? = nil
    var scanned: Int
    var unexpected: Int

    var testDescription: String { name }

    static let all: [RuleCase] = [
        // found_expected
        RuleCase(name: "found by tag", identifier: "SG-001", status: .foundExpected, assetTag: "SG-001", scanned: 1, unexpected: 0),
        RuleCase(name: "found by serial number", identifier: "SN-002", status: .foundExpected, assetTag: "SG-002", scanned: 1, unexpected: 0),
        RuleCase(
            name: "found: REPAIR is expected, no serial", identifier: "SG-003", status: .foundExpected, assetTag: "SG-003", scanned: 1, unexpected: 0),
        RuleCase(
            name: "an expected serial beats another country's tag", identifier: "MY-002", status: .foundExpected, assetTag: "SG-004", scanned: 1,
            unexpected: 0),
        RuleCase(
            name: "second asset found", before: ["SG-001"], identifier: "SG-002", status: .foundExpected, assetTag: "SG-002", scanned: 2,
            unexpected: 0),
        // already_scanned, reporting the first scan
        RuleCase(
            name: "repeat by tag", before: ["SG-001"], identifier: "SG-001", status: .alreadyScanned, assetTag: "SG-001", firstScan: 0, scanned: 1,
            unexpected: 0),
        RuleCase(
            name: "repeat by serial after tag", before: ["SG-001"], identifier: "SN-001", status: .alreadyScanned, assetTag: "SG-001", firstScan: 0,
            scanned: 1, unexpected: 0),
        RuleCase(
            name: "third scan names the first", before: ["SN-001", "SG-001"], identifier: "SG-001", status: .alreadyScanned, assetTag: "SG-001",
            firstScan: 0, scanned: 1, unexpected: 0),
        RuleCase(
            name: "repeat among others", before: ["SG-002", "NOPE-1", "SG-001"], identifier: "SN-002", status: .alreadyScanned, assetTag: "SG-002",
            firstScan: 0, scanned: 2, unexpected: 1),
        // unexpected, with the reason
        RuleCase(
            name: "other country by tag", identifier: "MY-001", status: .unexpected, reason: .otherCountry, assetTag: "MY-001", scanned: 0,
            unexpected: 1),
        RuleCase(
            name: "other country by serial", identifier: "SN-MY1", status: .unexpected, reason: .otherCountry, assetTag: "MY-001", scanned: 0,
            unexpected: 1),
        RuleCase(
            name: "archived in another country is other_country", identifier: "MY-ARC", status: .unexpected, reason: .otherCountry,
            assetTag: "MY-ARC", scanned: 0, unexpected: 1),
        RuleCase(
            name: "archived by tag", identifier: "SG-ARC", status: .unexpected, reason: .archived, assetTag: "SG-ARC", scanned: 0, unexpected: 1),
        RuleCase(
            name: "archived by serial", identifier: "SN-ARC", status: .unexpected, reason: .archived, assetTag: "SG-ARC", scanned: 0, unexpected: 1),
        RuleCase(name: "disposed", identifier: "SG-DSP", status: .unexpected, reason: .disposed, assetTag: "SG-DSP", scanned: 0, unexpected: 1),
        RuleCase(
            name: "registered after the start", identifier: "SG-NEW", status: .unexpected, reason: .notInExpectedSet, assetTag: "SG-NEW", scanned: 0,
            unexpected: 1),
        RuleCase(
            name: "registered after the start, by serial", identifier: "SN-NEW", status: .unexpected, reason: .notInExpectedSet, assetTag: "SG-NEW",
            scanned: 0, unexpected: 1),
        RuleCase(
            name: "unexpected by tag then serial counts once", before: ["MY-001"], identifier: "SN-MY1", status: .unexpected, reason: .otherCountry,
            assetTag: "MY-001", firstScan: 0, scanned: 0, unexpected: 1),
        RuleCase(
            name: "two unexpected assets count two", before: ["MY-001"], identifier: "SG-ARC", status: .unexpected, reason: .archived,
            assetTag: "SG-ARC", scanned: 0, unexpected: 2),
        // unknown, kept as unexpected
        RuleCase(name: "unknown identifier", identifier: "NOPE-1", status: .unknown, reason: .unknown, assetTag: nil, scanned: 0, unexpected: 1),
        RuleCase(
            name: "unknown repeated counts once", before: ["NOPE-1"], identifier: "NOPE-1", status: .unknown, reason: .unknown, assetTag: nil,
            firstScan: 0, scanned: 0, unexpected: 1),
        RuleCase(
            name: "two unknowns count two", before: ["NOPE-1"], identifier: "NOPE-2", status: .unknown, reason: .unknown, assetTag: nil, scanned: 0,
            unexpected: 2),
        RuleCase(
            name: "found after problems", before: ["MY-001", "NOPE-1", "SG-ARC"], identifier: "SG-004", status: .foundExpected, assetTag: "SG-004",
            scanned: 1, unexpected: 3),
        // trimming
        RuleCase(
            name: "spaces and CR LF are trimmed", identifier: "  SG-001 \r\n", status: .foundExpected, assetTag: "SG-001", scanned: 1, unexpected: 0),
        RuleCase(
            name: "scanner STX/ETX are trimmed", identifier: "\u{2}SG-001\u{3}", status: .foundExpected, assetTag: "SG-001", scanned: 1, unexpected: 0
        ),
        RuleCase(name: "tab and NUL are trimmed", identifier: "\tSN-002\u{0}", status: .foundExpected, assetTag: "SG-002", scanned: 1, unexpected: 0),
        RuleCase(
            name: "padded repeat is a repeat", before: ["SG-001"], identifier: "\u{1B}SG-001\n", status: .alreadyScanned, assetTag: "SG-001",
            firstScan: 0, scanned: 1, unexpected: 0),
        RuleCase(
            name: "padded unknown is the same unknown", before: ["NOPE-1"], identifier: " NOPE-1\t", status: .unknown, reason: .unknown,
            assetTag: nil, firstScan: 0, scanned: 0, unexpected: 1),
        // case sensitivity
        RuleCase(
            name: "case-sensitive: lower-case tag is unknown", identifier: "sg-001", status: .unknown, reason: .unknown, assetTag: nil, scanned: 0,
            unexpected: 1),
        RuleCase(
            name: "case-sensitive: upper-case of a lower tag is unknown", identifier: "ABC-7", status: .unknown, reason: .unknown, assetTag: nil,
            scanned: 0, unexpected: 1),
        RuleCase(
            name: "case-sensitive: exact lower tag is found", identifier: "abc-7", status: .foundExpected, assetTag: "abc-7", scanned: 1,
            unexpected: 0),
        RuleCase(
            name: "case-sensitive: differing cases are two unknowns", before: ["NOPE-1"], identifier: "nope-1", status: .unknown, reason: .unknown,
            assetTag: nil, scanned: 0, unexpected: 2),
        RuleCase(
            name: "case-insensitive: lower-case tag is found", caseSensitive: false, identifier: "sg-001", status: .foundExpected, assetTag: "SG-001",
            scanned: 1, unexpected: 0),
        RuleCase(
            name: "case-insensitive: upper-case of a lower tag", caseSensitive: false, identifier: "ABC-7", status: .foundExpected, assetTag: "abc-7",
            scanned: 1, unexpected: 0),
        RuleCase(
            name: "case-insensitive: serial", caseSensitive: false, identifier: "SN-LOWER", status: .foundExpected, assetTag: "abc-7", scanned: 1,
            unexpected: 0),
        RuleCase(
            name: "case-insensitive: repeat in another case", caseSensitive: false, before: ["SG-001"], identifier: "sg-001", status: .alreadyScanned,
            assetTag: "SG-001", firstScan: 0, scanned: 1, unexpected: 0),
        RuleCase(
            name: "case-insensitive: other country", caseSensitive: false, identifier: "my-001", status: .unexpected, reason: .otherCountry,
            assetTag: "MY-001", scanned: 0, unexpected: 1),
        RuleCase(
            name: "case-insensitive: archived by serial", caseSensitive: false, identifier: "sn-arc", status: .unexpected, reason: .archived,
            assetTag: "SG-ARC", scanned: 0, unexpected: 1),
        RuleCase(
            name: "case-insensitive: unknown", caseSensitive: false, identifier: "nope-9", status: .unknown, reason: .unknown, assetTag: nil,
            scanned: 0, unexpected: 1)
    ]
}
