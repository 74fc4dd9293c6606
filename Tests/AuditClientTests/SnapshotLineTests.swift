import AuditAPI
import Foundation
import InventoryCore
import Testing

/// The lines of the snapshot stream read back as they were written, whatever the text holds,
/// and a line the station cannot read is an error, never a wrong asset.
@Suite("The snapshot stream's lines")
struct SnapshotLineTests {
    static let scan = FirstScan(
        scannedAt: ISOTime.parse("2026-05-12T10:30:00Z") ?? Date(), station: "Dock \"1\"", user: "sam\\ann",
        source: .camera)

    @Test(arguments: ["plain", "quote \" and backslash \\", "tab\tnew\nline\u{1}", "ünïcødé ✓ 𝄞", ""])
    func anExpectedAssetReadsBackAsWritten(text: String) throws {
        let entry = AuditSnapshot.Expected(
            asset: AssetBrief(
                id: 42, assetTag: "T-\(text)", serialNum: text.isEmpty ? nil : text, name: "Laptop \(text)", model: nil,
                status: .repair, location: text, company: nil, country: "SG"),
            firstScan: text.isEmpty ? nil : Self.scan)
        #expect(try Self.read(entry) == .expected(entry))
    }

    @Test func unexpectedEntriesReadBackWithAndWithoutTheirAsset() throws {
        let known = AuditSnapshot.Unexpected(
            key: "asset:7", identifier: "SN-7", reason: .otherCountry,
            asset: AssetBrief(id: 7, assetTag: "M7", serialNum: "SN-7", name: "Laptop", country: "MY"),
            firstScan: Self.scan)
        let unknown = AuditSnapshot.Unexpected(key: "id:NOPE", identifier: "NOPE", reason: .unknown, asset: nil, firstScan: Self.scan)
        for entry in [known, unknown] {
            var bytes: [UInt8] = []
            SnapshotLines.append(entry, to: &bytes)
            #expect(try bytes.dropLast().withUnsafeBytes { try SnapshotLines.parse($0) } == .unexpected(entry))
        }
    }

    @Test(arguments: [
        #"["e",1,"T","S"]"#, #"["e","1","T",null,"N",null,"IN_STOCK",null,null,"SG",null,null,null,null]"#,
        #"["x"]"#, #"["e",1,"T",null,"N",null,"NOT_A_STATUS",null,null,"SG",null,null,null,null]"#, #"{"other":1}"#,
        #"["u","id:X","X","unknown",null,null,null,null,null,null,null,null,null,null,null,null,null]"#
    ])
    func aLineItCannotReadIsAnError(line: String) {
        #expect(throws: SnapshotLineError.self) { try Array(line.utf8).withUnsafeBytes { try SnapshotLines.parse($0) } }
    }

    static func read(_ entry: AuditSnapshot.Expected) throws -> SnapshotLines.Line {
        var bytes: [UInt8] = []
        SnapshotLines.append(entry, to: &bytes)
        #expect(bytes.last == UInt8(ascii: "\n") && bytes.dropLast().allSatisfy { $0 != UInt8(ascii: "\n") })
        return try bytes.dropLast().withUnsafeBytes { try SnapshotLines.parse($0) }
    }
}
