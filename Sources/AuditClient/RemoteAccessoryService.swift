import AuditAPI
import Foundation
import InventoryCore

/// Accessories over the API (`/api/v2/accessories`).
public struct RemoteAccessoryService: AccessoryService {
    let client: APIClient

    public init(client: APIClient) { self.client = client }

    public func list(query: ListQuery) async throws -> Page<Accessory> {
        try await client.send(.GET, Routes.accessories, query: APIClient.listItems(query), as: ListResponse<Accessory>.self).page
    }

    public func get(id: Int64) async throws -> Accessory {
        try await client.send(.GET, Routes.path(Routes.accessory, ["id": String(id)]))
    }

    public func create(_ input: AccessoryInput) async throws -> Accessory {
        try await client.send(.POST, Routes.accessories, body: input)
    }

    public func update(id: Int64, _ input: AccessoryInput) async throws -> Accessory {
        try await client.send(.PUT, Routes.path(Routes.accessory, ["id": String(id)]), body: input)
    }

    public func delete(id: Int64) async throws {
        _ = try await client.send(.DELETE, Routes.path(Routes.accessory, ["id": String(id)]), as: Empty.self)
    }

    public func checkout(id: Int64, _ movement: AccessoryMovement) async throws -> Accessory {
        try await client.send(.POST, Routes.path(Routes.accessoryCheckout, ["id": String(id)]), body: MovementBody(movement))
    }

    public func checkin(id: Int64, _ movement: AccessoryMovement) async throws -> Accessory {
        try await client.send(.POST, Routes.path(Routes.accessoryCheckin, ["id": String(id)]), body: MovementBody(movement))
    }
}
