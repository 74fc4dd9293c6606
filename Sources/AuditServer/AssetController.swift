import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// `/api/v2/assets`. Users limited to some countries see and change only those countries'
/// assets, as with audits: a list of another country is a 403, and an asset of another country
/// is not found (by id, or by `find`).
struct AssetController {
    let assets: any AssetService
    /// JSON imports at once: each can take about 5 times its body while it is decoded.
    let jsonImports = ImportSlots(limit: 2)

    /// Runs `write`; when it refuses the input field by field, a tag or serial number that
    /// another asset (not `except`) already has is named with the other fields' errors, so a
    /// form shows every error at once instead of the duplicate only after the rest is fixed.
    /// The store still checks uniqueness itself when it writes (this look-up is advice, not a lock).
    func withDuplicates(of input: AssetInput, except id: Int64?, _ write: () async throws -> Asset) async throws -> Asset {
        do {
            return try await write()
        } catch InventoryError.invalid(var errors) {
            for (field, value) in [("asset_tag", input.assetTag), ("serial_num", input.serialNum)] where errors.fields[field] == nil {
                guard let value, let key = try? Identifier.normalize(value, field: field),
                    let other = try await assets.find(identifier: key), other.id != id,
                    (field == "asset_tag" ? other.assetTag : other.serialNum) == key
                else { continue }
                errors.add(field, InventoryError.duplicate(field: field, value: key).errorDescription ?? "is taken")
            }
            throw InventoryError.invalid(errors)
        }
    }

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.get, Routes.assets, on: router) { request, context, user in
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
            var filter = AssetFilter(
                status: status, country: request.query("country"),
                customerId: try request.intQuery("customer_id").map(Int64.init))
            if let since = request.query("not_audited_since") {
                do throws(ValidationError) {
                    filter.notAuditedSince = try AuditAge.cutoff(since)
                } catch {
                    throw InventoryError.invalid(error)
                }
            }
            if let allowed = user.auditableCountries {
                if let country = filter.country {
                    let code: String
                    do throws(ValidationError) {
                        code = try Country.normalize(country)
                    } catch {
                        throw InventoryError.invalid(error)
                    }
                    try user.requireAssetCountry(code)
                } else {
                    filter.countries = allowed.sorted()
                }
            }
            return try Response.envelope(ListResponse(try await assets.list(filter, query: try request.listQuery()), key: "assets"))
        }
        routes.add(.get, Routes.assetFind, on: router) { request, context, user in
            guard let identifier = request.query("identifier"), !identifier.isEmpty else {
                throw InventoryError.invalid(ValidationError(field: "identifier", message: "is required"))
            }
            let found = try await assets.find(identifier: identifier)
            return try Response.envelope(found.flatMap { user.maySeeAssets(of: $0.country) ? $0 : nil })
        }
        RecordRoutes<Asset, AssetInput>(collection: Routes.assets, one: Routes.asset, noun: "Asset") { try $0.requireAssetEditing() }
            .addOne(
                to: routes, on: router, get: { id, user in try await visible(id, to: user) },
                create: { input, user in
                    if let country = input.country, let code = try? Country.normalize(country) { try user.requireAssetCountry(code) }
                    return try await withDuplicates(of: input, except: nil) { try await assets.create(input) }
                },
                update: { id, input, user in
                    _ = try await visible(id, to: user)
                    if let country = input.country, let code = try? Country.normalize(country) { try user.requireAssetCountry(code) }
                    return try await withDuplicates(of: input, except: id) { try await assets.update(id: id, input) }
                })
        routes.add(.delete, Routes.asset, on: router) { request, context, user in
            try user.requireAssetEditing()
            _ = try await visible(try context.id(), to: user)
            let modeText = request.query("mode") ?? "archive"
            guard let mode = DeleteMode(rawValue: modeText.lowercased()) else {
                throw InventoryError.invalid(ValidationError(field: "mode", message: "'\(modeText.prefix(20))' is not archive or delete"))
            }
            let asset = try await assets.delete(id: try context.id(), mode: mode)
            return try Response.envelope(DeleteAssetResponse(asset: asset), message: asset == nil ? "Asset deleted" : "Asset archived")
        }
        routes.add(.post, Routes.assetTransfer, on: router) { request, context, user in
            var request = request
            try user.requireAssetEditing()
            _ = try await visible(try context.id(), to: user)
            let transfer = try await request.decodeJSON(TransferRequest.self)
            return try Response.envelope(try await assets.transfer(id: try context.id(), transfer), message: "Asset transferred")
        }
        routes.add(.get, Routes.assetHistory, on: router) { request, context, user in
            let id = try context.id()
            _ = try await visible(id, to: user)
            return try Response.envelope(ListResponse(try await assets.history(assetID: id, query: try request.listQuery()), key: "history"))
        }
        // JSON rows (collected, up to `BodyLimits.importRows`, two imports at once), or the CSV file itself as
        // `text/csv`, spooled to a temporary file and then streamed into the service chunk by
        // chunk, so no write lock waits on the network.
        routes.add(.post, Routes.assetImport, on: router) { request, context, user in
            var request = request
            try user.requireAssetEditing()
            let count: Int
            if request.isCSV {
                let spooled = try await request.spoolBody(limit: BodyLimits.spooledCSV)
                defer { spooled.remove() }
                if user.auditableCountries == nil {
                    count = try await assets.importAssets(csv: try spooled.blocks()) { _ in }
                } else {
                    let rows = Self.scoped(try await AssetImport.chunks(of: try spooled.blocks()), to: user)
                    count = try await assets.importAssets(streaming: rows) { _ in }
                }
            } else {
                count = try await jsonImports.run {
                    let body = try await request.decodeJSON(ImportRequest.self, limit: BodyLimits.importRows)
                    return try await assets.importAssets(body.rows.map { Self.scoped($0, to: user) }) { _, _ in }
                }
            }
            return try Response.envelope(ImportResponse(imported: count), message: "Imported \(count) assets")
        }
    }

    /// A user limited to some countries imports only into them: a row of another country carries
    /// that problem, and the service imports nothing and names its line, as for any bad row.
    static func scoped(_ row: ImportRow, to user: UserInfo) -> ImportRow {
        guard user.auditableCountries != nil, let given = row.input.country, let code = try? Country.normalize(given),
            !user.maySeeAssets(of: code)
        else { return row }
        var row = row
        row.problems.append("country: you may not change the assets of \(code)")
        return row
    }

    static func scoped(_ chunks: AsyncThrowingStream<[ImportRow], any Error>, to user: UserInfo) -> AsyncThrowingStream<[ImportRow], any Error> {
        let (marked, continuation) = AsyncThrowingStream.makeStream(of: [ImportRow].self)
        let task = Task {
            do {
                for try await chunk in chunks { continuation.yield(chunk.map { Self.scoped($0, to: user) }) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return marked
    }

    /// The asset, unless it belongs to a country the user may not see: then it is not found.
    private func visible(_ id: Int64, to user: UserInfo) async throws -> Asset {
        let asset = try await assets.get(id: id)
        guard user.maySeeAssets(of: asset.country) else { throw InventoryError.notFound("asset \(id)") }
        return asset
    }
}
