import AuditAPI
import Foundation
import HTTPGuard
import Hummingbird
import InventoryCore

/// A refusal the kiosk answers with `{"error": CODE, "message": …}` and an HTTP status.
struct KioskError: Error, Sendable {
    var status: HTTPResponse.Status
    var code: ErrorCode
    var message: String
    var headers: HTTPFields = [:]

    static func badRequest(_ message: String) -> KioskError { KioskError(status: .badRequest, code: .badRequest, message: message) }
    static func invalid(_ message: String) -> KioskError { KioskError(status: .unprocessableContent, code: .validationError, message: message) }
    static func notFound(_ message: String) -> KioskError { KioskError(status: .notFound, code: .notFound, message: message) }

    /// The scan was not decided (the store or the server out of reach, a timeout, too many
    /// requests): the page keeps it and sends it again.
    var undecided: Bool { status.code >= 500 || status.code == 408 || status.code == 429 }

    /// The store's and the server's errors, with the status the audit API gives them
    /// (`InventoryError.httpStatus`, the one mapping of both).
    init(_ error: any Error) {
        if let kiosk = error as? KioskError {
            self = kiosk
            return
        }
        guard let inventory = InventoryError(error) else {
            self.init(status: .internalServerError, code: .internalError, message: "The kiosk could not do that; see the kiosk's log")
            return
        }
        self.init(
            status: HTTPResponse.Status(code: inventory.httpStatus), code: inventory.code, message: inventory.errorDescription ?? "\(inventory)")
    }

    init(status: HTTPResponse.Status, code: ErrorCode, message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }
}

struct ErrorBody: Encodable {
    var error: ErrorCode
    var message: String
}

extension KioskError {
    /// A refusal of the connection guard in the kiosk's error body.
    @Sendable static func refusal(_ refusal: Refusal) -> RefusalAnswer {
        let (code, message) =
            switch refusal {
            case .busy(let seconds): (ErrorCode.serverBusy, "The kiosk has too many connections open; try again in \(seconds) s")
            case .timeout(let seconds): (ErrorCode.requestTimeout, "The request did not arrive within \(seconds) s")
            case .malformed(let detail): (ErrorCode.badRequest, detail)
            }
        return RefusalAnswer(body: Array((try? JSONEncoder.auditStation().encode(ErrorBody(error: code, message: message))) ?? Data()))
    }
}
