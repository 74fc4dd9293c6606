import AuditAPI
import Foundation
import InventoryCore
import InventoryStore

/// The local copy of an audit built from the calls every audit API server has, for a server
/// without our snapshot: the expected set from `/details/all` pages, which of it is scanned
/// (from the pages' outcomes, or else `/details/scanned`), and the unexpected entries from
/// `/details/unexpected`. It sends only SPEC's `page` and `per_page`, so it reads the audit the
/// server is running for this user; the caller has checked that it is the one asked for.
struct ListedSnapshot: Sendable {
    let client: APIClient
    let caseSensitive: Bool
    static let perPage = ListQuery.maxPerPage
    /// Far beyond any audit (100 million rows), so a server that misreports its pages cannot loop forever.
    static let maxPages = 1_000_000

    func build(_ session: AuditSession) async throws -> AuditSnapshot {
        // The expected set; an entry a server marks unexpected is not part of it.
        let all = try await pages(.all).filter { !$0.hasOutcome || $0.asset.outcome != .unexpected }
        let scannedEntries = all.allSatisfy(\.hasOutcome) ? all.filter { $0.asset.outcome == .scanned } : try await pages(.scanned)
        var firstScans: [Int64: FirstScan] = [:]
        for entry in scannedEntries { if let id = entry.asset.id { firstScans[id] = Self.firstScan(entry.asset, session) } }
        let expected = all.compactMap { entry -> AuditSnapshot.Expected? in
            guard let brief = Self.brief(entry.asset, country: session.country) else { return nil }
            return AuditSnapshot.Expected(asset: brief, firstScan: firstScans[brief.id])
        }
        var unexpected: [AuditSnapshot.Unexpected] = []
        var known: [AssetBrief] = []
        for entry in try await pages(.unexpected) {
            let asset = entry.asset
            let first = Self.firstScan(asset, session)
            if var brief = Self.brief(asset, country: asset.reason == .otherCountry ? "another country" : session.country) {
                if asset.reason == .archived { brief.status = .archived }
                if asset.reason == .disposed { brief.status = .disposed }
                known.append(brief)
                unexpected.append(.init(key: AuditRules.unexpectedKey(assetID: brief.id), firstScan: first))
            } else if !asset.identifier.isEmpty {
                let key = AuditRules.unexpectedKey(identifier: Identifier.matchKey(asset.identifier, caseSensitive: caseSensitive))
                unexpected.append(.init(key: key, firstScan: first))
            }
        }
        return AuditSnapshot(audit: session, expected: expected, unexpected: unexpected, known: known)
    }

    /// Every page of one list, 100 entries a page.
    func pages(_ list: AuditList) async throws -> [WireAuditAsset] {
        var entries: [WireAuditAsset] = []
        var page = 1
        while page <= Self.maxPages {
            let answer = try await client.send(.GET, Routes.path(Routes.auditDetails, ["list": list.rawValue]),
                                               query: ["page": String(page), "per_page": String(Self.perPage)],
                                               as: WirePage<WireAuditAsset>.self)
            entries += answer.items
            if answer.items.isEmpty || page >= answer.pagination.lastPage { break }
            page += 1
        }
        return entries
    }

    static func brief(_ asset: AuditAsset, country: String) -> AssetBrief? {
        guard let id = asset.id, let tag = asset.assetTag else { return nil }
        return AssetBrief(id: id, assetTag: tag, serialNum: asset.serialNum, name: asset.name ?? tag, model: asset.model,
                          status: asset.status ?? .inStock, location: asset.location, company: asset.company,
                          country: asset.country ?? country)
    }

    /// The first scan as the list tells it; what it leaves out is said plainly.
    static func firstScan(_ asset: AuditAsset, _ session: AuditSession) -> FirstScan {
        asset.firstScan ?? FirstScan(scannedAt: asset.firstScannedAt ?? session.startedAt, station: asset.station ?? "another station",
                                     user: asset.user ?? "someone", source: asset.source ?? .manual)
    }
}
