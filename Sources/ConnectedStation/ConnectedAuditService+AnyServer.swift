import AuditClient
import AuditAPI
import Foundation
import InventoryCore
import ConnectedStore

/// Finding audits on any audit API server: `/status` is SPEC's; `audits` in it and
/// `GET /audit/{id}` are ours, used when they come and done without otherwise.
extension ConnectedAuditService {
    /// `GET /status`, noting whether the server is ours (it lists every running audit).
    func status(country: String? = nil) async throws -> WireStatus {
        let answer = try await client.send(.GET, Routes.auditStatus, query: ["country": country], as: WireStatus.self)
        extended = answer.offersAudits
        return answer
    }

    /// Every running audit the server shows this user: `audits` from our server; from a SPEC
    /// server, the one `/status` names plus, for each country this station holds a running
    /// audit of, the one `/status?country=` names.
    func runningAudits() async throws -> [AuditSession] {
        let answer = try await status()
        guard !answer.offersAudits else { return answer.audits }
        var running = answer.audits
        let held = Set(try await copies.audits().filter(\.isActive).map(\.country)).subtracting(running.map(\.country))
        for country in held.sorted() {
            for audit in try await status(country: country).audits where !running.contains(where: { $0.id == audit.id }) {
                running.append(audit)
            }
        }
        return running
    }

    /// The running audit `id` as `/status` describes it: asked once, and once more for its
    /// country when the server names one audit at a time (a SPEC server without `audits`).
    func runningAudit(_ id: AuditID, known: AuditSession? = nil) async throws -> AuditSession {
        let answer = try await status()
        if let found = answer.audits.first(where: { $0.id == id }) { return found }
        var country = known?.country
        if country == nil { country = try await copies.session(auditID: id)?.country }
        if !answer.offersAudits, let country, let found = try await status(country: country).audits.first(where: { $0.id == id }) {
            return found
        }
        if let known, known.isActive, !answer.offersAudits, answer.audit == nil {
            // A server whose /status does not show the audit it has just started.
            return known
        }
        throw InventoryError.notFound("audit \(id) is not running on \(client.baseURL)")
    }

    /// An audit by id without our `GET /audit/{id}`: a running one from `/status`, an ended one
    /// from this station's copy, else from the server's history. A copy of a running audit that
    /// the server, reachable, no longer shows running has ended: the copy learns it, as
    /// `refreshHeld` does, so a station that asks (the kiosk's poll) sees the end.
    func findAudit(id: AuditID) async throws -> AuditSession {
        do { return try await runningAudit(id) } catch InventoryError.notFound {}
        if var held = try await copies.session(auditID: id) {
            if held.isActive {
                held.isActive = false
                held.endedAt = held.endedAt ?? Date()
                try await copies.update(held)
            }
            return try await localSession(held)
        }
        var query = ListQuery(page: 1, perPage: ListQuery.maxPerPage)
        while true {
            let page = try await history(country: nil, query: query)
            if let found = page.items.first(where: { $0.id == id }) { return found }
            if page.items.isEmpty || query.page >= page.pagination.lastPage || query.page >= 1000 { break }
            query = ListQuery(page: query.page + 1, perPage: query.perPage)
        }
        throw InventoryError.notFound("audit \(id)")
    }

    /// The running audits this station holds a copy of, with its own pending scans counted:
    /// read from the local database only, so it answers at once with any network or none.
    public func heldAudits() async throws -> [AuditSession] {
        var sessions: [AuditSession] = []
        for audit in try await copies.audits() where audit.isActive { sessions.append(try await localSession(audit)) }
        return sessions.sorted { $0.country < $1.country }
    }

    /// Asks the server how the held audits stand and takes the answer into the local copy; an
    /// audit the server no longer shows running has ended, and then refuses scans here. Meant
    /// to run beside scanning: it changes nothing when the server cannot be reached.
    public func refreshHeld() async {
        guard let held = try? await copies.audits().filter(\.isActive), !held.isEmpty, let reading = try? await startReading(),
            let running = try? await runningAudits()
        else { return }
        for audit in held {
            if let now = running.first(where: { $0.id == audit.id }) {
                try? await takeDescription(now, readSince: reading)
            } else {
                var ended = audit
                ended.isActive = false
                ended.endedAt = ended.endedAt ?? Date()
                try? await copies.update(ended)
            }
        }
    }
}
