import AuditAPI
import Foundation
import InventoryCore

/// Assets over the API (`/api/v2/assets`).
public struct RemoteAssetService: AssetService {
    let client: APIClient

    public init(client: APIClient) { self.client = client }

    public func list(_ filter: AssetFilter, query: ListQuery) async throws -> Page<Asset> {
        var items = APIClient.listItems(query)
        items["status"] = filter.status?.rawValue
        items["country"] = filter.country
        items["customer_id"] = filter.customerId.map(String.init)
        return try await client.send(.GET, Routes.assets, query: items, as: ListResponse<Asset>.self).page
    }

    public func get(id: Int64) async throws -> Asset {
        try await client.send(.GET, Routes.path(Routes.asset, ["id": String(id)]))
    }

    public func find(identifier: String) async throws -> Asset? {
        try await client.send(.GET, Routes.assetFind, query: ["identifier": identifier], as: Asset?.self)
    }

    public func create(_ input: AssetInput) async throws -> Asset {
        try await client.send(.POST, Routes.assets, body: input)
    }

    public func update(id: Int64, _ input: AssetInput) async throws -> Asset {
        try await client.send(.PUT, Routes.path(Routes.asset, ["id": String(id)]), body: input)
    }

    public func delete(id: Int64, mode: DeleteMode) async throws -> Asset? {
        try await client.send(.DELETE, Routes.path(Routes.asset, ["id": String(id)]), query: ["mode": mode.rawValue],
                              as: DeleteAssetResponse.self).asset
    }

    public func transfer(id: Int64, _ request: TransferRequest) async throws -> Asset {
        try await client.send(.POST, Routes.path(Routes.assetTransfer, ["id": String(id)]), body: request)
    }

    public func importAssets(_ rows: [ImportRow], progress: @escaping @Sendable (Int, Int) -> Void) async throws -> Int {
        progress(0, rows.count)
        let count = try await client.send(.POST, Routes.assetImport, body: ImportRequest(rows: rows), as: ImportResponse.self).imported
        progress(rows.count, rows.count)
        return count
    }
}

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

/// Customers over the API (`/api/v2/customers`).
public struct RemoteCustomerService: CustomerService {
    let client: APIClient

    public init(client: APIClient) { self.client = client }

    public func list(query: ListQuery) async throws -> Page<Customer> {
        try await client.send(.GET, Routes.customers, query: APIClient.listItems(query), as: ListResponse<Customer>.self).page
    }

    public func get(id: Int64) async throws -> Customer {
        try await client.send(.GET, Routes.path(Routes.customer, ["id": String(id)]))
    }

    public func create(_ input: CustomerInput) async throws -> Customer {
        try await client.send(.POST, Routes.customers, body: input)
    }

    public func update(id: Int64, _ input: CustomerInput) async throws -> Customer {
        try await client.send(.PUT, Routes.path(Routes.customer, ["id": String(id)]), body: input)
    }

    public func delete(id: Int64) async throws {
        _ = try await client.send(.DELETE, Routes.path(Routes.customer, ["id": String(id)]), as: Empty.self)
    }
}
