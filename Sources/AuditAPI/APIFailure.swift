import Foundation
import InventoryCore

/// Failures of the HTTP layer itself, before a request reaches a service.
public enum APIFailure: Error, Sendable, Equatable, LocalizedError {
    /// The body is not JSON, or not the JSON this call takes.
    case malformed(String)
    /// The body is larger than this call accepts.
    case bodyTooLarge(limit: Int)
    /// No such route.
    case routeNotFound(method: String, path: String)
    /// The route exists, but not with this method.
    case methodNotAllowed(method: String, path: String)
    /// Too many attempts (wrong passwords); try again after that many seconds.
    case tooManyAttempts(retryAfter: Int)
    /// The server has as many connections open as it takes; try again after that many seconds.
    case serverBusy(retryAfter: Int)
    /// The request's headers did not arrive in time.
    case requestTimeout(seconds: Int)
    /// The server failed; the details are in the server's log only.
    case internalError
    /// The body is not of a type this call takes (`POST /api/v1/decode`: a JPEG or PNG).
    case unsupportedMediaType(given: String, accepted: [String])
    /// A frame's bytes are over the limit of `POST /api/v1/decode`.
    case frameTooLarge(limit: Int)
    /// A frame's header claims more pixels than `POST /api/v1/decode` reads.
    case frameTooManyPixels(width: Int, height: Int, limit: Int)
    /// The user sent frames faster than the server decodes for one user; try again after that many seconds.
    case tooManyFrames(retryAfter: Int)

    /// The seconds a client should wait before trying again, for the `Retry-After` header.
    public var retryAfter: Int? {
        switch self {
        case .tooManyAttempts(let seconds), .serverBusy(let seconds), .tooManyFrames(let seconds): seconds
        default: nil
        }
    }

    public var code: ErrorCode {
        switch self {
        case .malformed: .badRequest
        case .bodyTooLarge: .bodyTooLarge
        case .routeNotFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .tooManyAttempts: .tooManyAttempts
        case .serverBusy: .serverBusy
        case .requestTimeout: .requestTimeout
        case .internalError: .internalError
        case .unsupportedMediaType: .unsupportedMediaType
        case .frameTooLarge: .frameTooLarge
        case .frameTooManyPixels: .frameTooManyPixels
        case .tooManyFrames: .tooManyFrames
        }
    }

    public var status: Int {
        switch self {
        case .malformed, .bodyTooLarge: 400
        case .routeNotFound: 404
        case .methodNotAllowed: 405
        case .tooManyAttempts: 429
        case .serverBusy: 503
        case .requestTimeout: 408
        case .internalError: 500
        case .unsupportedMediaType: 415
        case .frameTooLarge, .frameTooManyPixels: 413
        case .tooManyFrames: 429
        }
    }

    public var errorDescription: String? {
        switch self {
        case .malformed(let what): "Malformed request: \(what)"
        case .bodyTooLarge(let limit): "The request body is larger than this call accepts (\(limit) bytes)"
        case .routeNotFound(let method, let path): "No such call: \(method) \(path)"
        case .methodNotAllowed(let method, let path): "\(path) does not accept \(method)"
        case .tooManyAttempts(let seconds): "Too many wrong passwords; try again in \(seconds) s"
        case .serverBusy(let seconds): "The server has as many connections as it takes; try again in \(seconds) s"
        case .requestTimeout(let seconds): "The request's headers did not arrive within \(seconds) s; the connection is closed"
        case .internalError:
            "The server failed to handle this request; nothing about it was stored unless a later call says so. Try again, and tell the administrator if it persists"
        case .unsupportedMediaType(let given, let accepted):
            "This call takes a body of type \(accepted.joined(separator: " or ")), not '\(given.isEmpty ? "none" : String(given.prefix(60)))'"
        case .frameTooLarge(let limit): "The frame is over \(limit) bytes; send it smaller (at most 1280 px wide is plenty)"
        case .frameTooManyPixels(let width, let height, let limit):
            "The frame is \(width)×\(height) pixels; frames over \(limit) pixels are refused: send it smaller"
        case .tooManyFrames(let seconds): "Too many frames from this user; send the next in \(seconds) s"
        }
    }
}

extension InventoryError {
    /// The HTTP status of each error: the one mapping that the server's API and the kiosk's
    /// calls both answer with.
    ///
    /// "No audit is running" (`NO_ACTIVE_AUDIT`) is 409, not 404: the call and what it names
    /// exist, and it fails only on the state of the audits, as `AUDIT_ALREADY_ACTIVE` and
    /// `AUDIT_ENDED` do (SPEC: 409 conflict, "such as an audit already active"); the same call
    /// succeeds once an audit is started. 404 stays "no such thing": this station's client
    /// reads a 404 on one of our extension calls as "this server does not offer it", and the
    /// kiosk's page reloads its state on a 409 from `/api/end`. Clients tell the errors apart by
    /// the `error` code, so a server that answers 404 here is still read correctly.
    public var httpStatus: Int {
        switch self {
        case .invalid: 422
        case .notFound: 404
        case .duplicate, .auditAlreadyActive, .noActiveAudit, .auditEnded, .auditRunning, .inUse, .ambiguousAudit, .stationsOut: 409
        case .forbidden: 403
        case .unauthorized: 401
        case .storage, .unavailable: 503
        }
    }
}

extension FailureEnvelope {
    public init(code: ErrorCode, message: String, errors: [String: [String]]? = nil, data: FailureDetail? = nil) {
        self.init(error: code.rawValue, message: message, errors: errors, data: data)
    }

    /// The envelope of a domain error. What a client needs to rebuild it goes in `data`.
    public init(_ error: InventoryError) {
        var detail: FailureDetail?
        switch error {
        case .auditAlreadyActive(let country, let auditID): detail = FailureDetail(auditId: auditID, country: country)
        case .auditEnded(let auditID), .auditRunning(let auditID): detail = FailureDetail(auditId: auditID)
        case .stationsOut(let auditID, let stations): detail = FailureDetail(auditId: auditID, stations: stations)
        case .noActiveAudit(let country): detail = country.map { FailureDetail(country: $0) }
        case .ambiguousAudit(let countries): detail = FailureDetail(countries: countries)
        case .duplicate(let field, let value): detail = FailureDetail(field: field, value: value)
        case .notFound(let subject), .forbidden(let subject), .storage(let subject): detail = FailureDetail(subject: subject)
        default: break
        }
        var fields: [String: [String]]?
        if case .invalid(let validation) = error { fields = validation.fields }
        self.init(code: error.code, message: error.errorDescription ?? error.code.rawValue, errors: fields, data: detail)
    }

    public init(_ failure: APIFailure) {
        self.init(code: failure.code, message: failure.errorDescription ?? failure.code.rawValue)
    }

    /// The domain error this envelope stands for, as a client rebuilds it from the code and
    /// `data` (a server that sends no `data` is read from its message as a whole). Nil for a code
    /// that is not a service's error: the client reads that one by the HTTP status.
    public func inventoryError() -> InventoryError? {
        let detail = data ?? FailureDetail()
        let subject = detail.subject ?? message
        switch ErrorCode(rawValue: error) {
        case .validationError: return .invalid(ValidationError(fields: errors ?? ["request": [message]]))
        case .notFound: return .notFound(subject)
        case .duplicate: return .duplicate(field: detail.field ?? "value", value: detail.value ?? "")
        case .auditAlreadyActive: return .auditAlreadyActive(country: detail.country ?? "?", auditID: detail.auditId ?? "?")
        case .noActiveAudit: return .noActiveAudit(country: detail.country)
        case .ambiguousAudit: return .ambiguousAudit(countries: detail.countries ?? [])
        case .auditEnded: return .auditEnded(detail.auditId ?? "?")
        case .auditRunning: return .auditRunning(detail.auditId ?? "?")
        case .stationsOut: return .stationsOut(auditID: detail.auditId ?? "?", stations: detail.stations ?? [message])
        case .inUse: return .inUse(message)
        case .forbidden: return .forbidden(subject)
        case .unauthorized: return .unauthorized(message)
        case .storageError: return .storage(subject)
        case .unavailable: return .unavailable(message)
        case .badRequest, .bodyTooLarge: return .invalid(ValidationError(field: "request", message: message))
        default: return nil
        }
    }
}
