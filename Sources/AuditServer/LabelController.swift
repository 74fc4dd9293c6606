import AuditAPI
import DocumentKit
import Foundation
import HTTPGuard
import HTTPTypes
import Hummingbird
import InventoryCore

/// `POST /api/v2/assets/labels`: asset labels as a PDF (sheets or a roll, symbols drawn by
/// libzint) or as ZPL for Zebra printers. The assets are named by tag, by country (and
/// location), or as an audit's unknown identifiers; a user sees only their countries' assets,
/// and another country's tag counts as not found.
struct LabelController {
    let assets: any AssetService
    let audits: any AuditService
    /// Label files drawn at once: one (a run of 20,000 labels takes seconds of a core; see
    /// docs/FIGURES.md); a second asker at the same time gets 503 with Retry-After.
    let drawing = ImportSlots(limit: 1)

    /// The body: one way of naming the assets, and the symbol, layout and format.
    struct Body: Decodable, Sendable {
        var tags: [String]?
        var country: String?
        var location: String?
        var auditId: String?
        var unknown: Bool?
        var symbology: String?
        var layout: String?
        var format: String?
    }

    static let route = "/api/v2/assets/labels"

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.post, Self.route, on: router) { request, context, user in
            var request = request
            let body = try await request.decodeJSON(Body.self)
            let symbology = try Self.choice(body.symbology, field: "symbology", as: LabelSymbology.self)
            let layout = try Self.choice(body.layout, field: "layout", as: LabelLayout.self)
            let format = try Self.choice(body.format ?? "pdf", field: "format", as: LabelFormat.self)
            if let tags = body.tags, tags.count > LabelSelection.maximum {
                throw InventoryError.invalid(ValidationError(field: "tags", message: "at most \(LabelSelection.maximum) tags"))
            }
            let selection = LabelSelection(
                tags: body.tags ?? [], country: body.country, location: body.location, auditID: body.auditId, unknown: body.unknown ?? false)
            let sheet = LabelSheet(symbology: symbology, layout: layout)
            let labels: [Label]
            let refused: [LabelRefusal]
            do {
                if let country = body.country, let code = try? Country.normalize(country) { try user.requireAssetCountry(code) }
                (labels, refused) = sheet.partition(try await selection.labels(assets: assets, audits: audits) { user.maySeeAssets(of: $0) })
                guard !labels.isEmpty else {
                    throw LabelError.invalid(refused.isEmpty ? "no labels: no asset matched" : LabelRefusal.summary(refused))
                }
            } catch let error as LabelError {
                throw InventoryError.invalid(ValidationError(field: "labels", message: error.description))
            }
            let fileName = "labels-\(layout.rawValue)-\(symbology.rawValue).\(format.rawValue)"
            // One sheet run at a time (the others are told to come back), drawn off the pool.
            var response = try await drawing.run {
                try await Response.spooled(contentType: format.contentType, fileName: fileName, spoolPrefix: "audit-labels-") { output in
                    switch format {
                    case .pdf: try await sheet.pdfOffPool(labels, to: output)
                    case .zpl: try output(Data(try await sheet.zplOffPool(labels).utf8))
                    }
                }
            }
            // The labels that could not be made are named; the others are in the file.
            if !refused.isEmpty {
                response.headers[Self.refusedCount] = String(refused.count)
                response.headers[Self.refusedDetail] = Self.headerText(LabelRefusal.summary(refused))
            }
            return response
        }
    }

    /// How many labels were left out (a tag that does not fit its label), and why, percent-encoded UTF-8.
    static let refusedCount = HTTPField.Name("X-Labels-Refused")!
    static let refusedDetail = HTTPField.Name("X-Labels-Refused-Detail")!

    /// Text for a header: percent-encoded (a tag may hold any character), at most 2,000 bytes.
    static func headerText(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: " -_.'(),;:")
        let encoded = text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        guard encoded.utf8.count > 2_000 else { return encoded }
        var cut = String(encoded.prefix(1_990))
        if let percent = cut.lastIndex(of: "%"), cut.distance(from: percent, to: cut.endIndex) < 3 { cut = String(cut[..<percent]) }
        return cut + "%E2%80%A6"
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ text: String?, field: String, as: T.Type) throws -> T where T.RawValue == String {
        let names = T.allCases.map(\.rawValue).joined(separator: ", ")
        guard let text else { throw InventoryError.invalid(ValidationError(field: field, message: "is required: one of \(names)")) }
        guard let value = T(rawValue: text.lowercased()) else {
            throw InventoryError.invalid(ValidationError(field: field, message: "'\(text.prefix(30))' is not one of \(names)"))
        }
        return value
    }
}
