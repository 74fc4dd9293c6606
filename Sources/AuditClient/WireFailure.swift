import AuditAPI
import Foundation
import InventoryCore

/// A failure envelope as any server sends it: `{success: false, error, message, errors?}`, where
/// `message`, `errors` and our `data` (the facts a client needs, such as the running audit)
/// may be missing. The error's kind comes from the `error` code, never from the message text.
struct WireFailure: Decodable, Sendable {
    var error: String?
    var message: String?
    var errors: [String: [String]]?
    var data: FailureDetail?

    /// The codes this station turns back into its own errors; any other is read from the status.
    static let knownCodes: Set<String> = [
        "VALIDATION_ERROR", "NOT_FOUND", "DUPLICATE", "AUDIT_ALREADY_ACTIVE", "NO_ACTIVE_AUDIT", "AMBIGUOUS_AUDIT",
        "AUDIT_ENDED", "AUDIT_RUNNING", "STATIONS_OUT", "IN_USE", "FORBIDDEN", "UNAUTHORIZED", "STORAGE_ERROR", "BAD_REQUEST", "BODY_TOO_LARGE"
    ]

    init(from decoder: any Decoder) throws {
        let fields = try decoder.lenient()
        error = fields.text("error")?.uppercased()
        message = fields.text("message")
        errors = fields.optional("errors", as: [String: [String]].self)
        data = fields.optional("data", as: FailureDetail.self)
    }

    func failure(code: String, message: String) -> FailureEnvelope {
        FailureEnvelope(error: code, message: message, errors: errors, data: data)
    }
}
