import AuditClient
import AuditAPI
import Foundation
import InventoryCore

/// A station that holds a copy of an audit reports on itself each time it asks the server how
/// the audit stands (`POST /api/v1/audit/{id}/stations`, our server's): its name and the scans
/// waiting in its outbox, so whoever ends the audit is told who may still hold scans of it
/// (`AuditStation`). A server without the call (404 or 405) is asked `GET /audit/{id}` as
/// before, and one of the seeds' API alone is never asked either.
extension ConnectedAuditService {
    /// The audit as the server describes it, or nil when the server has no call for one audit.
    func serverAudit(id: AuditID) async throws -> AuditSession? {
        if stationReportOffered != false, try await copies.session(auditID: id) != nil {
            let waiting = (try? await outbox.counts()).map { $0.pendingByAudit[id] ?? 0 }
            do {
                if let answer = try await client.sendIfOffered(
                    .POST, Routes.path(Routes.auditStations, ["audit_id": id]),
                    body: StationReportBody(deviceName: actor.station, waiting: waiting), as: Lenient<AuditStationsResponse>.self)
                {
                    stationReportOffered = true
                    return answer.value.audit
                }
                stationReportOffered = false
            } catch InventoryError.forbidden, InventoryError.invalid {
                // A user who may only look at the audit, or a name the server will not take:
                // the audit is read as before.
                stationReportOffered = false
            }
        }
        return try await client.sendIfOffered(.GET, Routes.path(Routes.auditOne, ["audit_id": id]), as: Lenient<AuditResponse>.self)?.value.audit
    }
}

/// `{audit, stations}`: the audit read leniently, and the stations as our server writes them.
extension AuditStationsResponse: LenientDecodable {
    package init(lenient decoder: any Decoder) throws {
        let fields = try decoder.lenient()
        self.init(
            audit: try fields.required("audit", as: Lenient<AuditSession>.self).value,
            stations: fields.optional("stations", as: [AuditStation].self) ?? [])
    }
}

extension ConnectedAuditService {
    /// The audit's scan trail from the server (`GET /api/v1/audit/{id}/scans`, our server's), so
    /// a station's user can find a scan to void. A server of the seeds' API alone keeps none.
    public func scans(auditID: AuditID, query: ListQuery) async throws -> Page<ScanRecord> {
        let items = APIClient.listItems(query)
        guard
            let page = try await client.sendIfOffered(
                .GET, Routes.path(Routes.auditTrail, ["audit_id": auditID]), query: items, as: WirePage<ScanRecord>.self)
        else {
            throw InventoryError.unavailable("The server at \(client.baseURL) keeps no scan trail (it speaks only the seeds' audit API)")
        }
        return page.page
    }
}
