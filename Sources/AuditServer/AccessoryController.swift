import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// `/api/v2/accessories`: the routes of every kind of record, and checking accessories out and in.
/// Accessories are limited to the user's countries as assets are: a user limited to some
/// countries lists and reads only accessories of those countries and those of no country
/// (shared stock), and changes (create, edit, delete, check out and in) only those of their
/// countries; one of another country is not found. An accessory of no country is changed
/// only by users of every country (ADMIN, or no countries listed), as it belongs to none.
struct AccessoryController {
    let accessories: any AccessoryService

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.get, Routes.accessories, on: router) { request, context, user in
            let page = try await accessories.list(query: try request.listQuery(), countries: user.auditableCountries)
            return try Response.envelope(ListResponse(page, key: "accessories"))
        }
        RecordRoutes<Accessory, AccessoryInput>(collection: Routes.accessories, one: Routes.accessory, noun: "Accessory") {
            try $0.requireAssetEditing()
        }.addOne(
            to: routes, on: router, get: { id, user in try await visible(id, to: user) },
            create: { input, user in
                try user.requireAccessoryCountry(input.country)
                return try await accessories.create(input)
            },
            update: { id, input, user in
                _ = try await changeable(id, by: user)
                if let country = input.country { try user.requireAccessoryCountry(country) }
                return try await accessories.update(id: id, input)
            })
        routes.add(.delete, Routes.accessory, on: router) { _, context, user in
            try user.requireAssetEditing()
            _ = try await changeable(try context.id(), by: user)
            try await accessories.delete(id: try context.id())
            return try Response.envelope(Empty(), message: "Accessory deleted")
        }
        routes.add(.post, Routes.accessoryCheckout, on: router) { request, context, user in
            var request = request
            try user.requireAssetEditing()
            _ = try await changeable(try context.id(), by: user)
            let movement = try await request.decodeJSON(MovementBody.self).movement
            return try Response.envelope(try await accessories.checkout(id: try context.id(), movement), message: "Checked out")
        }
        routes.add(.post, Routes.accessoryCheckin, on: router) { request, context, user in
            var request = request
            try user.requireAssetEditing()
            _ = try await changeable(try context.id(), by: user)
            let movement = try await request.decodeJSON(MovementBody.self).movement
            return try Response.envelope(try await accessories.checkin(id: try context.id(), movement), message: "Checked in")
        }
    }

    /// The accessory, if the user may see it: one of another country is not found.
    private func visible(_ id: Int64, to user: UserInfo) async throws -> Accessory {
        let accessory = try await accessories.get(id: id)
        if let country = accessory.country, !user.maySeeAssets(of: country) { throw InventoryError.notFound("accessory \(id)") }
        return accessory
    }

    /// The accessory, if the user may change it.
    private func changeable(_ id: Int64, by user: UserInfo) async throws -> Accessory {
        let accessory = try await visible(id, to: user)
        try user.requireAccessoryCountry(accessory.country)
        return accessory
    }
}

extension UserInfo {
    /// Changing an accessory of `country` (as given: nil or empty for no country). A code that
    /// is not a country is left to the input's own check.
    func requireAccessoryCountry(_ country: String?) throws {
        guard let country, !country.isEmpty else {
            guard auditableCountries == nil else {
                throw InventoryError.forbidden("an accessory of no country is changed only by users of every country; give it one of yours")
            }
            return
        }
        if let code = try? Country.normalize(country) { try requireAssetCountry(code) }
    }
}
