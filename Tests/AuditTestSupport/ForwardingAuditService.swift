import Foundation
import InventoryCore

/// An audit service that hands every call to `store`: a test's stand-in implements only the
/// calls it changes (a slow answer, a reading held at a gate) and inherits the rest.
public protocol ForwardingAuditService: AuditService {
    var store: any AuditService { get }
}

extension ForwardingAuditService {
    public func countries() async throws -> [CountryCount] { try await store.countries() }
    public func activeAudits() async throws -> [AuditSession] { try await store.activeAudits() }
    public func audit(id: AuditID) async throws -> AuditSession { try await store.audit(id: id) }
    public func start(country: String, locations: [String], by actor: Actor) async throws -> AuditSession {
        try await store.start(country: country, locations: locations, by: actor)
    }
    public func record(_ scan: ScanRequest) async throws -> ScanResult { try await store.record(scan) }
    public func end(auditID: AuditID, by actor: Actor) async throws -> AuditSummary { try await store.end(auditID: auditID, by: actor) }
    public func details(auditID: AuditID, list: AuditList, query: ListQuery) async throws -> Page<AuditAsset> {
        try await store.details(auditID: auditID, list: list, query: query)
    }
    public func history(country: String?, query: ListQuery) async throws -> Page<AuditSession> {
        try await store.history(country: country, query: query)
    }
    public func report(auditID: AuditID, format: ReportFormat, to output: @escaping @Sendable (Data) async throws -> Void) async throws {
        try await store.report(auditID: auditID, format: format, to: output)
    }
    public func scans(auditID: AuditID, query: ListQuery) async throws -> Page<ScanRecord> { try await store.scans(auditID: auditID, query: query) }
    public func void(_ request: VoidRequest) async throws -> VoidResult { try await store.void(request) }
    public func locations(country: String) async throws -> [LocationCount] { try await store.locations(country: country) }
    public func reconcile(_ request: ReconcileRequest) async throws -> ReconcileResult { try await store.reconcile(request) }
    public func locationProgress(auditID: AuditID) async throws -> LocationProgress { try await store.locationProgress(auditID: auditID) }
}
