import AuditAPI
import Foundation
import InventoryCore

/// The JSON bodies fuzz target's one step: the bytes decoded as every body type the server
/// decodes, through `JSONBody.decode` (what `Request.decodeJSON` calls), then through the checks
/// that need no database, and any error turned into the failure envelope. An error that the
/// server would not map to a 4xx (it would answer 500) is `unexpected`.
public enum JSONFuzzEntry {
    public enum Outcome: Equatable, Sendable {
        case accepted(body: String)
        case refused(body: String, status: Int)
        case unexpected(body: String, error: String)
    }

    public static let bodies: [(name: String, check: @Sendable (Data) throws -> Void)] = [
        ("StartRequest", { _ = try Country.normalize(try JSONBody.decode(StartRequest.self, from: $0).country) }),
        ("ScanRequest", { _ = try Identifier.normalize(try JSONBody.decode(ScanRequest.self, from: $0).identifier) }),
        ("EndRequest", { _ = try JSONBody.decode(EndRequest.self, from: $0) }),
        ("LoginRequest", { _ = try JSONBody.decode(LoginRequest.self, from: $0) }),
        ("AssetInput", { _ = try JSONBody.decode(AssetInput.self, from: $0).makeAsset(now: now) }),
        ("TransferRequest", { _ = try JSONBody.decode(TransferRequest.self, from: $0) }),
        ("ImportRequest", { body in
            for row in try JSONBody.decode(ImportRequest.self, from: body).rows { _ = try row.input.makeAsset(now: now) }
        }),
        ("CustomerInput", { _ = try JSONBody.decode(CustomerInput.self, from: $0).makeCustomer(now: now) }),
        ("AccessoryInput", { _ = try JSONBody.decode(AccessoryInput.self, from: $0).makeAccessory(now: now) }),
        ("MovementBody", { try JSONBody.decode(MovementBody.self, from: $0).movement.validate(limit: 1_000, limitName: "available") }),
    ]

    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    public static func run(_ bytes: [UInt8]) -> [Outcome] {
        let data = Data(bytes)
        return bodies.map { name, check in
            do {
                try check(data)
                return .accepted(body: name)
            } catch {
                return outcome(of: error, body: name)
            }
        }
    }

    /// The status the server's error middleware gives `error`, after encoding its envelope.
    static func outcome(of error: any Error, body: String) -> Outcome {
        let envelope: FailureEnvelope, status: Int
        if let failure = error as? APIFailure, failure.status < 500 {
            envelope = FailureEnvelope(failure); status = failure.status
        } else if let failure = InventoryError(error), failure.httpStatus < 500 {
            envelope = FailureEnvelope(failure); status = failure.httpStatus
        } else {
            return .unexpected(body: body, error: String(reflecting: error))
        }
        do { _ = try JSONEncoder.auditStation().encode(envelope) } catch {
            return .unexpected(body: body, error: "the failure envelope did not encode: \(error)")
        }
        return .refused(body: body, status: status)
    }
}
