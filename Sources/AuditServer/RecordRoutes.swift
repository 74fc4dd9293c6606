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

    /// GET one, POST (create) and PUT (update).
    func addOne(
        to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>,
        get: @escaping @Sendable (Int64) async throws -> Record,
        create: @escaping @Sendable (Input) async throws -> Record,
        update: @escaping @Sendable (Int64, Input) async throws -> Record
    ) {
        let noun = noun, mayChange = mayChange
        routes.add(.get, one, on: router) { _, context in
            _ = try context.requireUser()
            return try Response.envelope(try await get(try context.id()))
        }
        routes.add(.post, collection, on: router) { request, context in
            var request = request
            try mayChange(try context.requireUser())
            let input = try await request.decodeJSON(Input.self)
            return try Response.envelope(try await create(input), status: .created, message: "\(noun) created")
        }
        routes.add(.put, one, on: router) { request, context in
            var request = request
            try mayChange(try context.requireUser())
            let input = try await request.decodeJSON(Input.self)
            return try Response.envelope(try await update(try context.id(), input), message: "\(noun) updated")
        }
    }

    /// The list (under `key`), GET one, POST, PUT and DELETE of a record service.
    func add(
        _ service: some RecordService<Record, Input>, key: String, to routes: RouteTable,
        on router: some RouterMethods<AuditRequestContext>
    ) {
        let noun = noun, mayChange = mayChange
        routes.add(.get, collection, on: router) { request, context in
            _ = try context.requireUser()
            return try Response.envelope(ListResponse(try await service.list(query: try request.listQuery()), key: key))
        }
        addOne(
            to: routes, on: router, get: { try await service.get(id: $0) }, create: { try await service.create($0) },
            update: { try await service.update(id: $0, $1) })
        routes.add(.delete, one, on: router) { _, context in
            try mayChange(try context.requireUser())
            try await service.delete(id: try context.id())
            return try Response.envelope(Empty(), message: "\(noun) deleted")
        }
    }
}
