import AuditClient
import AuditAPI
import ConnectedStore
import Foundation
import InventoryCore

extension ConnectedAuditService {
    /// The longest a typed count waits for the server before it is kept here instead.
    static let countDeadline: Duration = .seconds(2)

    /// A typed count. With nothing of its audit waiting here, it goes to the server
    /// (`POST /api/v1/audit/count`), which answers with the accessory's numbers (the station's
    /// copy holds the audit's assets, not its accessories). Behind scans or counts still waiting,
    /// or when the server cannot be reached (within `countDeadline`), it is kept here with its own
    /// `count_id` and sent in its place among the scans once the server is back: a scan made after
    /// it counts on top of it there too. A server that does not count accessories (404 or 405)
    /// says so, and nothing was counted.
    public func count(_ request: CountRequest) async throws -> CountResult {
        await ensureHandler()
        var request = try request.checked()
        request.countId = request.countId ?? UUID().uuidString.lowercased()
        request.deviceName = request.deviceName ?? actor.station
        request.user = request.user ?? actor.user
        if let auditID = request.auditId, try await outbox.holdsWaiting(auditID: auditID) {
            return try await keep(request)
        }
        do {
            let answer = try await client.sendIfOffered(
                .POST, Routes.auditCount, body: request, as: CountResult.self, timeout: Self.countDeadline)
            guard let answer else {
                throw InventoryError.unavailable("The server at \(client.baseURL) does not count accessories; nothing was counted")
            }
            lastTallies[answer.accessory.tag] = answer.accessory
            return answer
        } catch InventoryError.unavailable where request.auditId != nil && extended != false {
            return try await keep(request)
        }
    }

    /// Keeps the count here for the server, and answers with the accessory as this station last
    /// heard of it (`pending`: the server has not counted it yet).
    private func keep(_ request: CountRequest) async throws -> CountResult {
        let kept = try await outbox.queueCount(request)
        await sync.kick()
        let known =
            lastTallies[kept.request.tag]
            ?? AccessoryTally(accessoryId: 0, tag: kept.request.tag, name: kept.request.tag, location: nil, expected: 0, counted: 0)
        var answer = CountResult(
            auditId: kept.request.auditId ?? "", countId: kept.request.countId ?? "", accessory: known, location: kept.request.location,
            countedHere: kept.request.quantity)
        answer.pending = true
        let place = kept.request.location.map { " at \($0)" } ?? ""
        answer.message =
            "\(known.name) (\(known.tag)): \(kept.request.quantity) counted\(place), kept on this station; the server gets it when it can be reached"
        return answer
    }

    /// The audit's accessories from the server; none from a server that does not count them.
    public func accessories(auditID: AuditID) async throws -> [AccessoryTally] {
        let path = Routes.path(Routes.auditAccessories, ["audit_id": auditID])
        return try await client.sendIfOffered(.GET, path, as: AccessoriesResponse.self)?.accessories ?? []
    }
}
