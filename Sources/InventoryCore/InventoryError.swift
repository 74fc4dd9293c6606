import Foundation

/// Every failure the services report, each with a stable code and a message a person can act on.
public enum InventoryError: Error, Sendable, Equatable, LocalizedError {
    /// Input failed validation; the fields say what and where.
    case invalid(ValidationError)
    /// The thing does not exist ("asset 12", "audit 3F2…").
    case notFound(String)
    /// A unique field already holds this value.
    case duplicate(field: String, value: String)
    /// The country already has a running audit: join it instead.
    case auditAlreadyActive(country: String, auditID: AuditID)
    /// No audit is running (in this country, when one is named).
    case noActiveAudit(country: String?)
    /// Several audits are running; the command must name one.
    case ambiguousAudit(countries: [String])
    /// The audit has ended and accepts no more scans.
    case auditEnded(AuditID)
    /// The audit is still running, and the call needs it ended (reconciliation).
    case auditRunning(AuditID)
    /// The audit was not ended: these stations may still hold scans of it (each a sentence of
    /// `AuditStation`). Ending with `force` ends it anyway.
    case stationsOut(auditID: AuditID, stations: [String])
    /// The thing is still in use (a customer with assets, an accessory checked out).
    case inUse(String)
    /// The user may not do this.
    case forbidden(String)
    /// No valid login: log in again.
    case unauthorized(String)
    /// The database failed (locked, full, unreadable). Nothing was stored.
    case storage(String)
    /// The server could not be reached or failed; nothing was lost.
    case unavailable(String)

    /// The error code of the API envelope.
    public var code: ErrorCode {
        switch self {
        case .invalid: .validationError
        case .notFound: .notFound
        case .duplicate: .duplicate
        case .auditAlreadyActive: .auditAlreadyActive
        case .noActiveAudit: .noActiveAudit
        case .ambiguousAudit: .ambiguousAudit
        case .auditEnded: .auditEnded
        case .auditRunning: .auditRunning
        case .stationsOut: .stationsOut
        case .inUse: .inUse
        case .forbidden: .forbidden
        case .unauthorized: .unauthorized
        case .storage: .storageError
        case .unavailable: .unavailable
        }
    }

    public var errorDescription: String? {
        switch self {
        case .invalid(let errors): "Invalid input: \(errors.errorDescription ?? "")"
        case .notFound(let what): "Not found: \(what)"
        case .duplicate(let field, let value): "Another record already has \(field) '\(value)'"
        case .auditAlreadyActive(let country, let id): "An audit of \(country) is already running (\(id)); join it instead of starting another"
        case .noActiveAudit(nil): "No audit is running; start one with `audit start --country CC`"
        case .noActiveAudit(let country?): "No audit of \(country) is running; start one with `audit start --country \(country)`"
        case .ambiguousAudit(let countries): "Audits are running in \(countries.joined(separator: ", ")); name one with --country or --audit"
        case .auditEnded(let id): "Audit \(id) has ended; it accepts no more scans or voids"
        case .auditRunning(let id): "Audit \(id) is still running; end it before reconciling (nothing was changed)"
        case .stationsOut(_, let stations):
            "The audit was not ended: \(stations.joined(separator: "; ")). Their scans made before the end still count when they "
                + "arrive; to end it now anyway, end it again with force (--force)"
        case .inUse(let what): what
        case .forbidden(let what): "Not allowed: \(what)"
        case .unauthorized(let what): what
        case .storage(let what): "Database error: \(what)"
        case .unavailable(let what): what
        }
    }
}

extension InventoryError {
    /// The error as an `InventoryError`: field errors become `.invalid`; other errors stay nil.
    public init?(_ error: any Error) {
        if let error = error as? InventoryError {
            self = error
        } else if let error = error as? ValidationError {
            self = .invalid(error)
        } else {
            return nil
        }
    }
}
