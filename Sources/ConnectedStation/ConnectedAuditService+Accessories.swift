import AuditClient
import AuditAPI
import Foundation
import InventoryCore

extension ConnectedAuditService {
    /// A typed count goes to the server at once (`POST /api/v1/audit/count`): the station's copy
    /// holds the audit's assets, not its accessories. A server that does not count accessories
    /// (404 or 405) says so, and nothing was counted.
    public func count(_ request: CountRequest) async throws -> CountResult {
        guard let result = try await client.sendIfOffered(.POST, Routes.auditCount, body: request, as: CountResult.self) else {
            throw InventoryError.unavailable("The server at \(client.baseURL) does not count accessories; nothing was counted")
        }
        return result
    }

    /// The audit's accessories from the server; none from a server that does not count them.
    public func accessories(auditID: AuditID) async throws -> [AccessoryTally] {
        let path = Routes.path(Routes.auditAccessories, ["audit_id": auditID])
        return try await client.sendIfOffered(.GET, path, as: AccessoriesResponse.self)?.accessories ?? []
    }
}
