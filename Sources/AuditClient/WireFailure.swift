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

    init(from decoder: any Decoder) throws {
        let fields = try decoder.lenient()
        error = fields.text("error")?.uppercased()
        message = fields.text("message")
        errors = fields.optional("errors", as: [String: [String]].self)
        data = fields.optional("data", as: FailureDetail.self)
    }

    /// The service error this failure stands for, when its code is one (`ErrorCode.services`,
    /// and the HTTP layer's refusals of the request); nil for any other code.
    func inventoryError(message: String) -> InventoryError? {
        guard let error else { return nil }
        return FailureEnvelope(error: error, message: message, errors: errors, data: data).inventoryError()
    }
}
