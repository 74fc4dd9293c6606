/// Every error code this product puts in an answer's `error` field: the services' own
/// (`InventoryError`), the HTTP layer's (`APIFailure`), the kiosk's and the station's scan
/// refusals. One list for the server, the station's client and the kiosk; the wire carries the
/// raw value. A client reads a code it does not know (another server's) by the HTTP status.
public enum ErrorCode: String, CaseIterable, Sendable, Codable {
    // The services: what `InventoryError` reports, and a client rebuilds.
    case validationError = "VALIDATION_ERROR"
    case notFound = "NOT_FOUND"
    case duplicate = "DUPLICATE"
    case auditAlreadyActive = "AUDIT_ALREADY_ACTIVE"
    case noActiveAudit = "NO_ACTIVE_AUDIT"
    case ambiguousAudit = "AMBIGUOUS_AUDIT"
    case auditEnded = "AUDIT_ENDED"
    case auditRunning = "AUDIT_RUNNING"
    case stationsOut = "STATIONS_OUT"
    case inUse = "IN_USE"
    case forbidden = "FORBIDDEN"
    case unauthorized = "UNAUTHORIZED"
    case storageError = "STORAGE_ERROR"
    case unavailable = "UNAVAILABLE"

    // The HTTP layer, before a request reaches a service.
    case badRequest = "BAD_REQUEST"
    case bodyTooLarge = "BODY_TOO_LARGE"
    case methodNotAllowed = "METHOD_NOT_ALLOWED"
    case tooManyAttempts = "TOO_MANY_ATTEMPTS"
    case serverBusy = "SERVER_BUSY"
    case requestTimeout = "REQUEST_TIMEOUT"
    case internalError = "INTERNAL_ERROR"
    case unsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"
    case frameTooLarge = "FRAME_TOO_LARGE"
    case frameTooManyPixels = "FRAME_TOO_MANY_PIXELS"
    case tooManyFrames = "TOO_MANY_FRAMES"

    // The kiosk's own calls.
    case pinRequired = "PIN_REQUIRED"
    case noPin = "NO_PIN"
    case wrongPin = "WRONG_PIN"
    case foreignHost = "FOREIGN_HOST"
    case notFromKioskPage = "NOT_FROM_KIOSK_PAGE"
    case offline = "OFFLINE"
    case starting = "STARTING"
    case notThisAudit = "NOT_THIS_AUDIT"
    case scansWaiting = "SCANS_WAITING"
    case noCamera = "NO_CAMERA"
    case tooManyViewers = "TOO_MANY_VIEWERS"

    // A scan's refusal at a station.
    case refusedByServer = "REFUSED_BY_SERVER"
    case badImage = "BAD_IMAGE"
    case scanFailed = "ERROR"

    /// The codes of `InventoryError`: a client turns these back into the same error, from the
    /// code and the envelope's `data`, never from the message's words.
    public static let services: Set<ErrorCode> = [
        .validationError, .notFound, .duplicate, .auditAlreadyActive, .noActiveAudit, .ambiguousAudit, .auditEnded, .auditRunning,
        .stationsOut, .inUse, .forbidden, .unauthorized, .storageError, .unavailable
    ]

    /// The code of a refusal that carries only an HTTP status (the framework's own, below the
    /// routes): the code that status stands for, or `BAD_REQUEST`.
    public init(refusedWith status: Int) {
        self =
            switch status {
            case 401: .unauthorized
            case 403: .forbidden
            case 404: .notFound
            case 405: .methodNotAllowed
            case 408: .requestTimeout
            case 413: .bodyTooLarge
            case 415: .unsupportedMediaType
            case 422: .validationError
            case 429: .tooManyAttempts
            default: .badRequest
            }
    }
}
