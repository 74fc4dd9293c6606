import AuditClient
import AuditAPI
import ConnectedStore
import Foundation
import InventoryCore

extension ConnectedAuditService {
    /// Voids a scan. Online, the server decides: a scan still waiting in the outbox is pushed
    /// first, then the void is sent with its own id (a resend after a lost answer is the same
    /// void) and the copy follows the server's answer. While the server cannot be reached, a
    /// scan this station made is voided here (`StationCopy.queueVoid`): the copy counts as if
    /// the scan had not been made, and the void waits in the outbox behind its scan. A seeds-only
    /// server has no void; the station says so and records nothing.
    public func void(_ request: VoidRequest) async throws -> VoidResult {
        await ensureHandler()
        var request = request
        request.voidId = request.voidId ?? UUID().uuidString.lowercased()
        request.deviceName = request.deviceName ?? actor.station
        request.user = actor.user
        let prepared = try PreparedVoid(request, defaultStation: actor.station)
        if let entry = try await outbox.entry(scanID: prepared.scanID), entry.state == .pending {
            await sync.pushNow()
            if try await outbox.entry(scanID: prepared.scanID)?.state == .pending {
                return try await queue(prepared)
            }
        }
        if extended == nil { _ = try? await status() }
        if extended == false { throw seedsOnly(prepared.scanID) }
        let body = VoidRequest(
            scanId: prepared.scanID, auditId: prepared.auditID, reason: prepared.reason, voidId: prepared.voidID,
            voidedAt: prepared.voidedAt, deviceName: prepared.station)
        do {
            var result = try await client.send(.POST, Routes.path(Routes.auditVoid, ["scan_id": prepared.scanID]), body: body, as: VoidResult.self)
            try await copies.applyVoid(result, caseSensitive: caseSensitive)
            // The numbers this station shows, on its own revision scale, like every other answer.
            result.progress = try await copies.localSession(auditID: result.void.auditId)?.progress ?? result.progress.unordered
            return result
        } catch InventoryError.unavailable(let message) {
            do { return try await queue(prepared) } catch InventoryError.unavailable(let local) {
                throw InventoryError.unavailable("\(local) (\(message))")
            }
        }
    }

    /// Records the void here, to be sent when the server is back; refused when the server is
    /// known to speak only the seeds' API.
    private func queue(_ prepared: PreparedVoid) async throws -> VoidResult {
        if extended == false { throw seedsOnly(prepared.scanID) }
        return try await copies.queueVoid(prepared, caseSensitive: caseSensitive)
    }

    private func seedsOnly(_ scanID: String) -> InventoryError {
        InventoryError.unavailable(
            "The server at \(client.baseURL) speaks only the seeds' audit API, which has no way to void a scan; scan \(scanID) still counts")
    }
}
