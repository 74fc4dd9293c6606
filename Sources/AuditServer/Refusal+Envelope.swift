import AuditAPI
import Foundation
import HTTPGuard

extension Refusal {
    /// The failure the API reports for a refusal of the connection guard.
    var failure: APIFailure {
        switch self {
        case .busy(let seconds): .serverBusy(retryAfter: seconds)
        case .timeout(let seconds): .requestTimeout(seconds: seconds)
        case .malformed(let detail): .malformed(detail)
        }
    }

    /// The refusal in the JSON envelope of every other error.
    @Sendable static func envelope(_ refusal: Refusal) -> RefusalAnswer {
        RefusalAnswer(body: Array((try? JSONEncoder.auditStation().encode(FailureEnvelope(refusal.failure))) ?? Data()))
    }
}
