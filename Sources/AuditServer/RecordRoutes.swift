import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// The routes every kind of record has (assets, accessories, customers): one by id for any
/// user, and create and update, then the list and delete of a `RecordService`, for a user who
/// may change that kind.
struct RecordRoutes<Record: Codable & Sendable, Input: Decodable & Sendable> {
    /// The collection's path (`/api/v2/customers`) and one record's (`/api/v2/customers/{id}`).
    let collection: String
    let one: String
    /// What the messages name: "Customer created".
    let noun: String
    /// Throws when the user may not change this kind of record.
    let mayChange: @Sendable (UserInfo) throws -> Void

    /// GET one, POST (create) and PUT (update); each is told the user, for records that are
    /// limited to the user's countries.
    func addOne(
        to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>,
        get: @escaping @Sendable (Int64, UserInfo) async throws -> Record,
        create: @escaping @Sendable (Input, UserInfo) async throws -> Record,
        update: @escaping @Sendable (Int64, Input, UserInfo) async throws -> Record
    ) {
        let noun = noun, mayChange = mayChange
        routes.add(.get, one, on: router) { _, context, user in
            return try Response.envelope(try await get(try context.id(), user))
        }
        routes.add(.post, collection, on: router) { request, context, user in
            var request = request
            try mayChange(user)
            let input = try await request.decodeJSON(Input.self)
            return try Response.envelope(try await create(input, user), status: .created, message: "\(noun) created")
        }
        routes.add(.put, one, on: router) { request, context, user in
            var request = request
            try mayChange(user)
            let input = try await request.decodeJSON(Input.self)
            return try Response.envelope(try await update(try context.id(), input, user), message: "\(noun) updated")
        }
    }

    /// The list (under `key`), GET one, POST, PUT and DELETE of a record service.
    func add(
        _ service: some RecordService<Record, Input>, key: String, to routes: RouteTable,
        on router: some RouterMethods<AuditRequestContext>
    ) {
        let noun = noun, mayChange = mayChange
        routes.add(.get, collection, on: router) { request, _, _ in
            return try Response.envelope(ListResponse(try await service.list(query: try request.listQuery()), key: key))
        }
        addOne(
            to: routes, on: router, get: { id, _ in try await service.get(id: id) }, create: { input, _ in try await service.create(input) },
            update: { id, input, _ in try await service.update(id: id, input) })
        routes.add(.delete, one, on: router) { _, context, user in
            try mayChange(user)
            try await service.delete(id: try context.id())
            return try Response.envelope(Empty(), message: "\(noun) deleted")
        }
    }
}
