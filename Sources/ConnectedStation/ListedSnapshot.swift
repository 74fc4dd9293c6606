import AuditClient
import AuditAPI
import Foundation
import InventoryCore
import ConnectedStore

/// The local copy of an audit built from the calls every audit API server has, for a server
/// without our snapshot stream: the expected set from `/details/all` pages, which of it is
/// scanned (from the pages' outcomes, or else `/details/scanned`), and the unexpected entries
/// from `/details/unexpected`, each page written as it arrives. It sends only SPEC's `page`
/// and `per_page`, so it reads the audit the server is running for this user; the caller has
/// checked that it is the one asked for.
struct ListedSnapshot: Sendable {
    let client: APIClient
    let caseSensitive: Bool
    static let perPage = ListQuery.maxPerPage
    /// Far beyond any audit (100 million rows), so a server that misreports its pages cannot loop forever.
    static let maxPages = 1_000_000

    func stream(_ session: AuditSession, into feed: CopyFeed) async throws {
        // The expected set; an entry a server marks unexpected is not part of it.
        var allHadOutcomes = true
        try await pages(.all) { entries in
            var chunk: [AuditSnapshot.Expected] = []
            for entry in entries where !entry.hasOutcome || entry.asset.outcome != .unexpected {
                allHadOutcomes = allHadOutcomes && entry.hasOutcome
                guard let brief = Self.brief(entry.asset, country: session.country) else { continue }
                let scanned = entry.hasOutcome && entry.asset.outcome == .scanned
                chunk.append(AuditSnapshot.Expected(asset: brief, firstScan: scanned ? Self.firstScan(entry.asset, session) : nil))
            }
            try await feed.take(.expected(chunk))
        }
        if !allHadOutcomes {
            try await pages(.scanned) { entries in
                try await feed.take(
                    .scanned(
                        entries.compactMap { entry in
                            entry.asset.id.map { ExpectedFirstScan(assetID: $0, firstScan: Self.firstScan(entry.asset, session)) }
                        }))
            }
        }
        try await pages(.unexpected) { entries in
            var chunk: [AuditSnapshot.Unexpected] = []
            for entry in entries {
                let asset = entry.asset
                let first = Self.firstScan(asset, session)
                let reason = asset.reason ?? (asset.id == nil ? .unknown : .notInExpectedSet)
                if var brief = Self.brief(asset, country: asset.reason == .otherCountry ? "another country" : session.country) {
                    if asset.reason == .archived { brief.status = .archived }
                    if asset.reason == .disposed { brief.status = .disposed }
                    chunk.append(
                        .init(
                            key: AuditRules.unexpectedKey(assetID: brief.id),
                            identifier: asset.identifier.isEmpty ? brief.assetTag : asset.identifier,
                            reason: reason, asset: brief, firstScan: first))
                } else if !asset.identifier.isEmpty {
                    let key = AuditRules.unexpectedKey(identifier: Identifier.matchKey(asset.identifier, caseSensitive: caseSensitive))
                    chunk.append(.init(key: key, identifier: asset.identifier, reason: .unknown, asset: nil, firstScan: first))
                }
            }
            feed.take(chunk)
        }
    }

    /// Every page of one list, 100 entries a page, each handed on as it arrives.
    func pages(_ list: AuditList, _ body: ([WireAuditAsset]) async throws -> Void) async throws {
        var page = 1
        while page <= Self.maxPages {
            let answer = try await client.send(
                .GET, Routes.path(Routes.auditDetails, ["list": list.rawValue]),
                query: ["page": String(page), "per_page": String(Self.perPage)],
                as: WirePage<WireAuditAsset>.self)
            try await body(answer.items)
            if answer.items.isEmpty || page >= answer.pagination.lastPage { break }
            page += 1
        }
    }

    static func brief(_ asset: AuditAsset, country: String) -> AssetBrief? {
        guard let id = asset.id, let tag = asset.assetTag else { return nil }
        return AssetBrief(
            id: id, assetTag: tag, serialNum: asset.serialNum, name: asset.name ?? tag, model: asset.model,
            status: asset.status ?? .inStock, location: asset.location, company: asset.company,
            country: asset.country ?? country)
    }

    /// The first scan as the list tells it; what it leaves out is said plainly.
    static func firstScan(_ asset: AuditAsset, _ session: AuditSession) -> FirstScan {
        asset.firstScan
            ?? FirstScan(
                scannedAt: asset.firstScannedAt ?? session.startedAt, station: asset.station ?? "another station",
                user: asset.user ?? "someone", source: asset.source ?? .manual)
    }
}
