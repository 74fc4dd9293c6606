import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// `/api/v2/assets`.
struct AssetController {
    let assets: any AssetService
    /// JSON imports at once: each can take about 5 times its body while it is decoded.
    let jsonImports = ImportSlots(limit: 2)

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.get, Routes.assets, on: router) { request, context in
            _ = try context.requireUser()
            let statusText = request.query("status")
            let status = try statusText.map { text in
                guard let status = AssetStatus(rawValue: text.uppercased()) else {
                    throw InventoryError.invalid(
                        ValidationError(
                            field: "status",
                            message: "'\(text.prefix(40))' is not one of \(AssetStatus.allCases.map(\.rawValue).joined(separator: ", "))"))
                }
                return status
            }
            let filter = AssetFilter(
                status: status, country: request.query("country"),
                customerId: try request.intQuery("customer_id").map(Int64.init))
            return try Response.envelope(ListResponse(try await assets.list(filter, query: try request.listQuery()), key: "assets"))
        }
        routes.add(.get, Routes.assetFind, on: router) { request, context in
            _ = try context.requireUser()
            guard let identifier = request.query("identifier"), !identifier.isEmpty else {
                throw InventoryError.invalid(ValidationError(field: "identifier", message: "is required"))
            }
            return try Response.envelope(try await assets.find(identifier: identifier))
        }
        RecordRoutes<Asset, AssetInput>(collection: Routes.assets, one: Routes.asset, noun: "Asset") { try $0.requireAssetEditing() }
            .addOne(
                to: routes, on: router, get: { try await assets.get(id: $0) }, create: { try await assets.create($0) },
                update: { try await assets.update(id: $0, $1) })
        routes.add(.delete, Routes.asset, on: router) { request, context in
            try context.requireUser().requireAssetEditing()
            let modeText = request.query("mode") ?? "archive"
            guard let mode = DeleteMode(rawValue: modeText.lowercased()) else {
                throw InventoryError.invalid(ValidationError(field: "mode", message: "'\(modeText.prefix(20))' is not archive or delete"))
            }
            let asset = try await assets.delete(id: try context.id(), mode: mode)
            return try Response.envelope(DeleteAssetResponse(asset: asset), message: asset == nil ? "Asset deleted" : "Asset archived")
        }
        routes.add(.post, Routes.assetTransfer, on: router) { request, context in
            var request = request
            try context.requireUser().requireAssetEditing()
            let transfer = try await request.decodeJSON(TransferRequest.self)
            return try Response.envelope(try await assets.transfer(id: try context.id(), transfer), message: "Asset transferred")
        }
        // JSON rows (collected, up to `BodyLimits.importRows`, two imports at once), or the CSV file itself as
        // `text/csv`, spooled to a temporary file and then streamed into the service chunk by
        // chunk, so no write lock waits on the network.
        routes.add(.post, Routes.assetImport, on: router) { request, context in
            var request = request
            try context.requireUser().requireAssetEditing()
            let count: Int
            if request.isCSV {
                let spooled = try await request.spoolBody(limit: BodyLimits.spooledCSV)
                defer { spooled.remove() }
                count = try await assets.importAssets(csv: try spooled.blocks()) { _ in }
            } else {
                count = try await jsonImports.run {
                    let body = try await request.decodeJSON(ImportRequest.self, limit: BodyLimits.importRows)
                    return try await assets.importAssets(body.rows) { _, _ in }
                }
            }
            return try Response.envelope(ImportResponse(imported: count), message: "Imported \(count) assets")
        }
    }
}
