import Foundation
import InventoryCore

/// Decodes the JSON body of a request, the one way the server does it. A body that is not JSON,
/// or not a JSON object, is an `APIFailure.malformed` (400); JSON with a missing or wrongly typed
/// field is an `InventoryError.invalid` naming the field (422). Nothing else is thrown.
public enum JSONBody {
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try JSONDecoder.auditStation().decode(type, from: data)
        } catch let error as DecodingError {
            throw failure(error)
        }
    }

    /// The error for a body that did not decode.
    public static func failure(_ error: DecodingError) -> any Error {
        func field(_ path: [any CodingKey]) -> String {
            let keys = path.map { $0.intValue.map { "[\($0)]" } ?? snakeCase($0.stringValue) }
            return keys.isEmpty ? "body" : keys.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return InventoryError.invalid(ValidationError(field: field(context.codingPath + [key]), message: "is required"))
        case .typeMismatch(let type, let context):
            let name = field(context.codingPath)
            if context.codingPath.isEmpty { return APIFailure.malformed("the body must be a JSON object") }
            return InventoryError.invalid(ValidationError(field: name, message: "must be \(typeName(type))"))
        case .valueNotFound(let type, let context):
            return InventoryError.invalid(ValidationError(field: field(context.codingPath), message: "must be \(typeName(type)), not null"))
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return APIFailure.malformed("the body is not valid JSON") }
            return InventoryError.invalid(ValidationError(field: field(context.codingPath), message: "is not valid: \(context.debugDescription)"))
        @unknown default:
            return APIFailure.malformed("the body could not be read")
        }
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: String(describing: type).contains("Array") ? "a list" : "an object"
        }
    }

    static func snakeCase(_ key: String) -> String {
        var result = ""
        for character in key {
            if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
        }
        return result
    }
}
