import Foundation
import InventoryCore

/// An entry of an audit list or a scan answer as any server sends it. SPEC's Asset in audit
/// lists is `id, asset_tag, serial_num?, name, model?, status, location?, company?` (and in the
/// unexpected list `identifier` and `reason`, with the asset fields null for an unknown
/// identifier); our server adds the outcome and the first scan. An asset status outside SPEC's
/// list reads as IN_STOCK.
package struct WireAuditAsset: Decodable, Sendable {
    package var asset: AuditAsset
    /// Whether the server said how the audit stands with it (our lists do; SPEC's need not).
    package var hasOutcome: Bool

    package init(from decoder: any Decoder) throws {
        let fields = try decoder.lenient()
        let id = fields.integer("id").map(Int64.init)
        let tag = fields.text("assetTag")
        let brief = id.flatMap { id in
            tag.map { tag in
                AssetBrief(
                    id: id, assetTag: tag, serialNum: fields.text("serialNum"), name: fields.text("name") ?? tag,
                    model: fields.text("model"), status: fields.choice("status", as: AssetStatus.self) ?? .inStock,
                    location: fields.text("location"), company: fields.text("company"), country: fields.text("country")?.uppercased() ?? "")
            }
        }
        let outcome = fields.choice("outcome", as: AuditOutcome.self)
        hasOutcome = outcome != nil
        asset = AuditAsset(
            asset: brief, identifier: fields.text("identifier") ?? tag ?? "", outcome: outcome ?? .scanned,
            reason: fields.choice("reason", as: UnexpectedReason.self), scanCount: fields.integer("scanCount") ?? 0)
        asset.firstScannedAt = fields.optional("firstScannedAt", as: Date.self)
        asset.station = fields.text("station")
        asset.user = fields.text("user")
        asset.source = fields.choice("source", as: ScanSource.self)
        if brief != nil && asset.country == "" { asset.country = nil }
    }
}

extension AuditAsset {
    /// The entry with the outcome its list implies, for a server whose lists do not say it.
    package func inferringOutcome(from list: AuditList) -> AuditAsset {
        var entry = self
        switch list {
        case .scanned, .misplaced: entry.outcome = .scanned
        case .missing: entry.outcome = .missing
        case .unexpected: entry.outcome = .unexpected
        case .all: entry.outcome = firstScannedAt == nil ? .missing : .scanned
        }
        return entry
    }
}

/// The answer to `POST /scan` as any server gives it: SPEC's `{status, message, asset?,
/// progress}`, where progress may lack `missing_count`, plus what our server adds (the first
/// scan, the reason, the ids). What a server leaves out is left empty here, and
/// `answer(for:progress:)` fills it from the scan the station sent: no status reads as
/// `.pending` (which a server never answers), no message as "", no progress as zeros, no ids
/// as "".
extension ScanResult: LenientDecodable {
    package init(lenient decoder: any Decoder) throws {
        let fields = try decoder.lenient()
        let asset = fields.optional("asset", as: WireAuditAsset.self)?.asset
        var progress = AuditProgress(totalAssets: 0, scannedCount: 0, unexpectedCount: 0)
        if let numbers = try? fields.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("progress")), let total = numbers.integer("totalAssets") {
            progress = AuditProgress(
                totalAssets: total, scannedCount: numbers.integer("scannedCount") ?? 0,
                unexpectedCount: numbers.integer("unexpectedCount") ?? 0, revision: numbers.integer("revision"))
        }
        self.init(
            identifier: fields.text("identifier") ?? "", status: fields.choice("status", as: ScanStatus.self) ?? .pending,
            message: fields.text("message") ?? "", asset: asset, reason: fields.choice("reason", as: UnexpectedReason.self) ?? asset?.reason,
            firstScan: fields.optional("firstScan", as: FirstScan.self), progress: progress,
            auditId: fields.text("auditId") ?? "", scanId: fields.text("scanId") ?? "",
            missingSinceAudit: fields.text("missingSinceAudit"))
        // Optional, and only for `accessory_counted`: a server that does not count accessories
        // never sends it, and one this station cannot read is left out.
        accessory = fields.optional("accessory", as: AccessoryTally.self)
    }

    /// Whether the server sent the audit's numbers. Once it has stored a scan they count it,
    /// as scanned or as unexpected, so numbers that are all zero are numbers it did not send.
    package var givesProgress: Bool { progress != AuditProgress(totalAssets: 0, scannedCount: 0, unexpectedCount: 0) }
}
