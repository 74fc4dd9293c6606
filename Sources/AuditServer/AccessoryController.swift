import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// `/api/v2/accessories`: the routes of every kind of record, and checking accessories out and in.
struct AccessoryController {
    let accessories: any AccessoryService

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        RecordRoutes<Accessory, AccessoryInput>(collection: Routes.accessories, one: Routes.accessory, noun: "Accessory") {
            try $0.requireAssetEditing()
        }.add(accessories, key: "accessories", to: routes, on: router)
        routes.add(.post, Routes.accessoryCheckout, on: router) { request, context in
            var request = request
            try context.requireUser().requireAssetEditing()
            let movement = try await request.decodeJSON(MovementBody.self).movement
            return try Response.envelope(try await accessories.checkout(id: try context.id(), movement), message: "Checked out")
        }
        routes.add(.post, Routes.accessoryCheckin, on: router) { request, context in
            var request = request
            try context.requireUser().requireAssetEditing()
            let movement = try await request.decodeJSON(MovementBody.self).movement
            return try Response.envelope(try await accessories.checkin(id: try context.id(), movement), message: "Checked in")
        }
    }
}
