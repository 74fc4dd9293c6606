import AuditClient
import AuditAPI
import Foundation
import InventoryCore

extension ConnectedAuditService {
    /// Reconciles an ended audit on the server (`POST /api/v1/audit/{id}/reconcile`): the
    /// server changes its inventory, and this station's copy holds no inventory to change. A
    /// server of the seeds' API has no such call, and says so before anything is sent.
    public func reconcile(_ request: ReconcileRequest) async throws -> ReconcileResult {
        if extended == nil { _ = try? await status() }
        guard extended != false else {
            throw InventoryError.unavailable(
                "The server at \(client.baseURL) speaks only the seeds' audit API, which cannot reconcile an audit; nothing was changed")
        }
        let body = ReconcileBody(preview: request.preview, actions: request.actions)
        return try await client.send(
            .POST, Routes.path(Routes.auditReconcile, ["audit_id": request.auditId]), body: body, as: ReconcileResult.self)
    }
}
