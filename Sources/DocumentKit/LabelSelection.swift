import Foundation
import InventoryCore

/// Which assets get labels: tags named one by one, the assets of a country (and location), or
/// the identifiers an audit scanned that no asset has (`unknown`), to label before registering them.
public struct LabelSelection: Sendable, Equatable {
    public var tags: [String]
    public var country: String?
    public var location: String?
    public var auditID: AuditID?
    public var unknown: Bool

    /// The most labels one request makes.
    public static let maximum = 20_000

    public init(tags: [String] = [], country: String? = nil, location: String? = nil, auditID: AuditID? = nil, unknown: Bool = false) {
        self.tags = tags
        self.country = country
        self.location = location
        self.auditID = auditID
        self.unknown = unknown
    }

    /// Checks that the selection names something, and names it one way.
    public func validate() throws {
        let ways = [!tags.isEmpty, country != nil || location != nil, auditID != nil || unknown].filter { $0 }.count
        guard ways > 0 else { throw LabelError.invalid("name the assets: tags, --country (and --location), or --audit ID --unknown") }
        guard ways == 1 else { throw LabelError.invalid("name the assets one way: tags, or --country/--location, or --audit ID --unknown") }
        if location != nil && country == nil { throw LabelError.invalid("--location needs --country") }
        if unknown != (auditID != nil) { throw LabelError.invalid("--audit ID and --unknown go together: the audit's unknown identifiers") }
    }

    /// The labels, in the order named (tags), by asset (country), or as first scanned (unknown).
    /// `mayShow` says whether the asker may see a country's assets; others count as not found.
    public func labels(
        assets: any AssetService, audits: any AuditService, mayShow: @Sendable (String) -> Bool = { _ in true }
    ) async throws -> [Label] {
        try validate()
        var labels: [Label] = []
        if !tags.isEmpty {
            var missing: [String] = []
            for tag in tags {
                if let asset = try await assets.find(identifier: tag), mayShow(asset.country) {
                    labels.append(Label(tag: asset.assetTag, name: asset.name))
                } else {
                    missing.append(tag)
                }
            }
            if !missing.isEmpty {
                let shown = missing.prefix(5).map { "'\(LabelError.shown($0))'" }.joined(separator: ", ")
                throw LabelError.invalid("no asset has the tag \(shown)\(missing.count > 5 ? " and \(missing.count - 5) more" : "")")
            }
        } else if let country {
            let code: String
            do throws(ValidationError) {
                code = try Country.normalize(country)
            } catch {
                throw LabelError.invalid(error.errorDescription ?? "country is not an ISO 3166-1 alpha-2 code")
            }
            guard mayShow(code) else { throw LabelError.invalid("no asset matched in \(code)") }
            var page = 1
            while true {
                let found = try await assets.list(AssetFilter(country: code), query: ListQuery(page: page, perPage: ListQuery.maxPerPage))
                for asset in found.items where location == nil || asset.location == location {
                    labels.append(Label(tag: asset.assetTag, name: asset.name))
                }
                if labels.count > Self.maximum { throw LabelError.invalid("more than \(Self.maximum) labels: narrow the selection") }
                if page >= found.pagination.lastPage { break }
                page += 1
            }
            if labels.isEmpty {
                throw LabelError.invalid("no asset matched: none in \(code)\(location.map { " at location '\(LabelError.shown($0))'" } ?? "")")
            }
        } else if let auditID {
            let audit = try await audits.audit(id: auditID)
            guard mayShow(audit.country) else { throw InventoryError.notFound("audit \(auditID)") }
            var page = 1
            while true {
                let found = try await audits.details(auditID: auditID, list: .unexpected, query: ListQuery(page: page, perPage: ListQuery.maxPerPage))
                for entry in found.items where entry.id == nil && entry.assetTag == nil {
                    labels.append(Label(tag: entry.identifier, name: "Unregistered (audit \(audit.country))"))
                }
                if labels.count > Self.maximum { throw LabelError.invalid("more than \(Self.maximum) labels: narrow the selection") }
                if page >= found.pagination.lastPage { break }
                page += 1
            }
            if labels.isEmpty { throw LabelError.invalid("no asset matched: audit \(auditID) scanned no unknown identifier") }
        }
        guard labels.count <= Self.maximum else { throw LabelError.invalid("more than \(Self.maximum) labels: narrow the selection") }
        return labels
    }
}
