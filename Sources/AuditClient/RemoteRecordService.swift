import AuditAPI
import Foundation
import InventoryCore

/// Records of one kind over the API: a collection's path (`/api/v2/customers`) and one
/// record's (`/api/v2/customers/{id}`).
public struct RemoteRecordService<Record: Codable & Sendable, Input: Encodable & Sendable>: RecordService {
    let client: APIClient
    let collection: String
    let one: String

    public func list(query: ListQuery) async throws -> Page<Record> {
        try await client.send(.GET, collection, query: APIClient.listItems(query), as: ListResponse<Record>.self).page
    }

    public func get(id: Int64) async throws -> Record {
        try await client.send(.GET, path(one, id))
    }

    public func create(_ input: Input) async throws -> Record {
        try await client.send(.POST, collection, body: input)
    }

    public func update(id: Int64, _ input: Input) async throws -> Record {
        try await client.send(.PUT, path(one, id), body: input)
    }

    public func delete(id: Int64) async throws {
        _ = try await client.send(.DELETE, path(one, id), as: Empty.self)
    }

    func path(_ template: String, _ id: Int64) -> String { Routes.path(template, ["id": String(id)]) }
}

/// Accessories over the API (`/api/v2/accessories`).
public typealias RemoteAccessoryService = RemoteRecordService<Accessory, AccessoryInput>

extension RemoteRecordService: AccessoryService where Record == Accessory, Input == AccessoryInput {
    public init(client: APIClient) { self.init(client: client, collection: Routes.accessories, one: Routes.accessory) }

    /// The server limits the list to the countries of the token's user.
    public func list(query: ListQuery, countries: Set<String>?) async throws -> Page<Accessory> { try await list(query: query) }

    public func checkout(id: Int64, _ movement: AccessoryMovement) async throws -> Accessory {
        try await client.send(.POST, path(Routes.accessoryCheckout, id), body: MovementBody(movement))
    }

    public func checkin(id: Int64, _ movement: AccessoryMovement) async throws -> Accessory {
        try await client.send(.POST, path(Routes.accessoryCheckin, id), body: MovementBody(movement))
    }
}

/// Customers over the API (`/api/v2/customers`).
public typealias RemoteCustomerService = RemoteRecordService<Customer, CustomerInput>

extension RemoteRecordService: CustomerService where Record == Customer, Input == CustomerInput {
    public init(client: APIClient) { self.init(client: client, collection: Routes.customers, one: Routes.customer) }
}
