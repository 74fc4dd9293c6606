import AuditAPI
import DocumentKit
import Foundation
import HTTPGuard
import Hummingbird
import InventoryCore

/// `POST /api/v2/assets/labels`: asset labels as a PDF (sheets or a roll, symbols drawn by
/// libzint) or as ZPL for Zebra printers. The assets are named by tag, by country (and
/// location), or as an audit's unknown identifiers; a user sees only their countries' assets,
/// and another country's tag counts as not found.
struct LabelController {
    let assets: any AssetService
    let audits: any AuditService

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
        routes.add(.post, Self.route, on: router) { request, context in
            var request = request
            let user = try context.requireUser()
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
            do {
                if let country = body.country, let code = try? Country.normalize(country) { try user.requireAssetCountry(code) }
                labels = try await selection.labels(assets: assets, audits: audits) { user.maySeeAssets(of: $0) }
                try sheet.validate(labels)
            } catch let error as LabelError {
                throw InventoryError.invalid(ValidationError(field: "labels", message: error.description))
            }
            let fileName = "labels-\(layout.rawValue)-\(symbology.rawValue).\(format.rawValue)"
            return try await Response.spooled(contentType: format.contentType, fileName: fileName, spoolPrefix: "audit-labels-") { output in
                switch format {
                case .pdf: try sheet.pdf(labels, to: output)
                case .zpl: try output(Data(try sheet.zpl(labels).utf8))
                }
            }
        }
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
