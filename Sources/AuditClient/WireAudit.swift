import AuditAPI
import Foundation
import InventoryCore

/// An AuditSession as any server sends it. SPEC: `id, country, total_assets, scanned_count,
/// missing_count, unexpected_count, completion_percentage, started_at, started_by, ended_at?,
/// is_active`; seed 004 sends `started_by` as a user id and no `ended_by`. The counts the
/// station can work out (missing, completion) and `is_active` may be missing.
extension AuditSession: LenientDecodable {
    package init(lenient decoder: any Decoder) throws {
        let fields = try decoder.lenient()
        guard let id = fields.text("id") else {
            throw DecodingError.keyNotFound(AnyKey("id"), .init(codingPath: fields.codingPath, debugDescription: "an audit without an id"))
        }
        let progress = AuditProgress(
            totalAssets: fields.integer("totalAssets") ?? 0, scannedCount: fields.integer("scannedCount") ?? 0,
            unexpectedCount: fields.integer("unexpectedCount") ?? 0, revision: fields.integer("revision"))
        let endedAt = fields.optional("endedAt", as: Date.self)
        self.init(
            id: id, country: fields.text("country")?.uppercased() ?? "?", progress: progress,
            startedAt: fields.optional("startedAt", as: Date.self) ?? Date(timeIntervalSince1970: 0),
            startedBy: fields.text("startedBy") ?? "", endedAt: endedAt, endedBy: fields.text("endedBy"),
            lateScanCount: fields.integer("lateScanCount"))
        if let active = fields.flag("isActive") { isActive = active && endedAt == nil }
    }
}

/// `GET /status`: `{active, audit}` by SPEC. Our server adds `audits`, every running audit the
/// user may see; `offersAudits` says whether it came. Not `StatusResponse`, which has no place
/// for that: the station learns from it whether the server is ours.
package struct WireStatus: Decodable, Sendable {
    package var audit: AuditSession?
    package var audits: [AuditSession]
    package var offersAudits: Bool

    package init(from decoder: any Decoder) throws {
        let fields = try decoder.lenient()
        let audit = fields.lenient("audit", as: AuditSession.self)
        let active = fields.flag("active") ?? (audit != nil)
        self.audit = active ? audit : nil
        let listed = fields.lenientList("audits", of: AuditSession.self)
        offersAudits = listed != nil
        audits = listed ?? (self.audit.map { [$0] } ?? [])
    }
}

/// `POST /start` and our `GET /audit/{id}`: `{audit}`.
extension AuditResponse: LenientDecodable {
    package init(lenient decoder: any Decoder) throws {
        self.init(audit: try decoder.lenient().required("audit", as: Lenient<AuditSession>.self).value)
    }
}

/// `POST /end`: `{audit, summary}`. SPEC does not give the summary's fields, so its lists are
/// read when they are ours and left empty otherwise.
extension EndResponse: LenientDecodable {
    package init(lenient decoder: any Decoder) throws {
        let fields = try decoder.lenient()
        let details = (try? fields.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("summary")))
        guard let audit = fields.lenient("audit", as: AuditSession.self) ?? details?.lenient("audit", as: AuditSession.self) else {
            throw DecodingError.keyNotFound(AnyKey("audit"), .init(codingPath: fields.codingPath, debugDescription: "no audit in the answer"))
        }
        var ended = audit
        ended.isActive = false
        self.init(
            summary: AuditSummary(
                audit: ended, missing: details?.optional("missing", as: [WireAuditAsset].self)?.map(\.asset) ?? [],
                unexpected: details?.optional("unexpected", as: [WireAuditAsset].self)?.map(\.asset) ?? []))
    }
}

/// `GET /countries`: `{countries: […]}` or the array itself.
extension CountriesResponse: LenientDecodable {
    package init(lenient decoder: any Decoder) throws {
        if let list = try? decoder.singleValueContainer().decode([Lenient<CountryCount>].self) {
            self.init(countries: list.map(\.value))
        } else {
            self.init(countries: try decoder.lenient().required("countries", as: [Lenient<CountryCount>].self).map(\.value))
        }
    }
}

/// A country of `GET /countries`: an object with `country` (or `code`) and `expected_assets`
/// (or `count`), or just a code.
extension CountryCount: LenientDecodable {
    package init(lenient decoder: any Decoder) throws {
        if let code = try? decoder.singleValueContainer().decode(String.self) {
            self.init(country: code.uppercased(), expectedAssets: 0)
            return
        }
        let fields = try decoder.lenient()
        guard let code = fields.text("country") ?? fields.text("code") else {
            throw DecodingError.keyNotFound(AnyKey("country"), .init(codingPath: fields.codingPath, debugDescription: "a country without a code"))
        }
        self.init(
            country: code.uppercased(), expectedAssets: fields.integer("expectedAssets") ?? fields.integer("count") ?? 0,
            activeAuditId: fields.text("activeAuditId"))
    }
}
