import AuditAPI
import Foundation
import InventoryCore

extension ConnectedAuditService {
    /// Voids a scan on the server, which must hold the scan first: a scan still waiting in the
    /// outbox is pushed now. The void is sent with its own id, so a resend after a lost answer
    /// is the same void. While the server cannot be reached the void is refused with that
    /// reason, and nothing is recorded: the scan keeps counting until a void reaches the server.
    public func void(_ request: VoidRequest) async throws -> VoidResult {
        await ensureHandler()
        if let entry = try await outbox.entry(scanID: request.scanId), entry.state == .pending {
            let report = await sync.pushNow()
            if try await outbox.entry(scanID: request.scanId)?.state == .pending {
                throw InventoryError.unavailable(
                    "Scan \(request.scanId) is not on the server yet (\(report.stoppedBy ?? "not delivered")), so it cannot be voided now; it still counts. Void it again when the server is reachable"
                )
            }
        }
        if extended == nil { _ = try? await status() }
        guard extended != false else {
            throw InventoryError.unavailable(
                "The server at \(client.baseURL) speaks only the seeds' audit API, which has no way to void a scan; scan \(request.scanId) still counts"
            )
        }
        let body = VoidBody(
            auditId: request.auditId, reason: request.reason, voidId: request.voidId ?? UUID().uuidString.lowercased(),
            voidedAt: request.voidedAt ?? Date(), deviceName: request.deviceName ?? actor.station)
        let result = try await client.send(.POST, Routes.path(Routes.auditVoid, ["scan_id": request.scanId]), body: body, as: VoidResult.self)
        try await replica.applyVoid(result, caseSensitive: caseSensitive)
        return result
    }
}
