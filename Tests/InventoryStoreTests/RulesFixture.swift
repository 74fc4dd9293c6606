import Foundation
import InventoryCore

/// The inventory every rule case runs against: an audit of SG, with assets of SG and MY in
/// every status, and one asset registered only after the audit started.
enum RulesFixture {
    struct Item: Sendable {
        let tag: String
        let serial: String?
        let status: AssetStatus
        let country: String
    }

    static let country = "SG"

    /// Registered before the audit starts.
    static let before: [Item] = [
        Item(tag: "SG-001", serial: "SN-001", status: .inStock, country: "SG"),
        Item(tag: "SG-002", serial: "SN-002", status: .deployed, country: "SG"),
        Item(tag: "SG-003", serial: nil, status: .repair, country: "SG"),
        Item(tag: "abc-7", serial: "sn-lower", status: .readyToDeploy, country: "SG"),
        // Its serial is the tag of an asset in another country: the expected asset wins.
        Item(tag: "SG-004", serial: "MY-002", status: .inStock, country: "SG"),
        Item(tag: "SG-ARC", serial: "SN-ARC", status: .archived, country: "SG"),
        Item(tag: "SG-DSP", serial: nil, status: .disposed, country: "SG"),
        Item(tag: "MY-001", serial: "SN-MY1", status: .inStock, country: "MY"),
        Item(tag: "MY-002", serial: nil, status: .deployed, country: "MY"),
        Item(tag: "MY-ARC", serial: nil, status: .archived, country: "MY")
    ]

    /// Registered after the audit started: known, but not in the expected set.
    static let after: [Item] = [
        Item(tag: "SG-NEW", serial: "SN-NEW", status: .inStock, country: "SG")
    ]

    static var expectedTotal: Int { before.filter { $0.country == country && !$0.status.isRetired }.count }

    static func input(_ item: Item) -> AssetInput {
        AssetInput(
            assetTag: item.tag, serialNum: item.serial, name: "Asset \(item.tag)", status: item.status.rawValue,
            country: item.country)
    }

    /// Every identifier a random run draws from: tags, serials, other cases, padding, unknowns.
    static var identifierPool: [String] {
        let known = (before + after).flatMap { [$0.tag] + ($0.serial.map { [$0] } ?? []) }
        return known + known.map { $0.lowercased() } + known.map { $0.uppercased() }
            + known.map { " \($0)\r\n" } + ["NOPE-1", "NOPE-2", "nope-1", "\u{2}NOPE-1\u{3}"]
    }

    /// A whole-second time: the store keeps milliseconds, so these compare exactly.
    static let t0 = Date(timeIntervalSince1970: 1_778_581_800)

    /// The scan that comes `index`-th before the scan under test.
    static func priorScan(_ index: Int) -> FirstScan {
        FirstScan(
            scannedAt: t0.addingTimeInterval(Double(index)), station: "station-\(index)",
            user: "user-\(index)", source: .camera)
    }

    static let finalScan = FirstScan(
        scannedAt: t0.addingTimeInterval(1000), station: "kiosk-final",
        user: "final-user", source: .manual)
}
