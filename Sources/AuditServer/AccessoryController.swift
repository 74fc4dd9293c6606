import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// `/api/v2/accessories`.
struct AccessoryController {
    let accessories: any AccessoryService

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.get, Routes.accessories, on: router) { request, context in
            _ = try context.requireUser()
            return try Response.envelope(ListResponse(try await accessories.list(query: try request.listQuery()), key: "accessories"))
        }
        routes.add(.get, Routes.accessory, on: router) { _, context in
            _ = try context.requireUser()
            return try Response.envelope(try await accessories.get(id: try context.id()))
        }
        routes.add(.post, Routes.accessories, on: router) { request, context in
            var request = request
            try context.requireUser().requireAssetEditing()
            let input = try await request.decodeJSON(AccessoryInput.self)
            return try Response.envelope(try await accessories.create(input), status: .created, message: "Accessory created")
        }
        routes.add(.put, Routes.accessory, on: router) { request, context in
            var request = request
            try context.requireUser().requireAssetEditing()
            let input = try await request.decodeJSON(AccessoryInput.self)
            return try Response.envelope(try await accessories.update(id: try context.id(), input), message: "Accessory updated")
        }
        routes.add(.delete, Routes.accessory, on: router) { _, context in
            try context.requireUser().requireAssetEditing()
            try await accessories.delete(id: try context.id())
            return try Response.envelope(Empty(), message: "Accessory deleted")
        }
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
