import AuditAPI
import Foundation
import InventoryCore

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
