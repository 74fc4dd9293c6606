import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// Accessories in audits: a typed count (`POST /api/v1/audit/count`), and what an audit expects
/// and counted of each (`GET /api/v1/audit/{audit_id}/accessories`).
extension AuditController {
    func addAccessoryRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.post, Routes.auditCount, on: router, signedIn: count)
        routes.add(.get, Routes.auditAccessories, on: router, signedIn: accessories)
    }

    /// `POST /api/v1/audit/count`.
    func count(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        var request = request
        var count = try await request.decodeJSON(CountRequest.self)
        let audit = try await resolve(auditID: count.auditId, country: nil, user: user)
        try user.requireAuditing(audit.country)
        count.auditId = audit.id
        count.user = user.name
        let result = try await audits.count(count)
        return try Response.envelope(result, message: result.message)
    }

    /// `GET /api/v1/audit/{audit_id}/accessories`.
    func accessories(_ request: Request, _ context: AuditRequestContext, _ user: UserInfo) async throws -> Response {
        let audit = try await viewable(context, user)
        return try Response.envelope(AccessoriesResponse(auditId: audit.id, accessories: try await audits.accessories(auditID: audit.id)))
    }
}
