import AuditAPI
import Foundation
import Hummingbird
import InventoryCore
import NIOCore

extension Request {
    /// Reads and decodes a JSON body of at most `limit` bytes. Too large or not JSON is 400;
    /// JSON with missing or wrongly typed fields is 422 with the field errors.
    /// `emptyIsObject`: a call whose every field is optional takes no body as `{}`.
    mutating func decodeJSON<T: Decodable>(_ type: T.Type, limit: Int = BodyLimits.standard, emptyIsObject: Bool = false) async throws -> T {
        let buffer: ByteBuffer
        do { buffer = try await collectBody(upTo: limit) } catch is NIOTooManyBytesError {
            throw APIFailure.bodyTooLarge(limit: limit)
        }
        guard buffer.readableBytes > 0 || emptyIsObject else { throw APIFailure.malformed("the body is empty; send a JSON object") }
        let data = buffer.readableBytes > 0 ? Data(buffer.readableBytesView) : Data("{}".utf8)
        do {
            return try JSONDecoder.auditStation().decode(type, from: data)
        } catch let error as DecodingError {
            throw Self.failure(error)
        }
    }

    /// The error for a body that did not decode.
    static func failure(_ error: DecodingError) -> any Error {
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

    /// A query parameter, percent-decoded.
    func query(_ name: String) -> String? {
        uri.queryParameters[Substring(name)].map { String($0).removingPercentEncoding ?? String($0) }
    }

    /// An integer query parameter within `range`; text that is not a number, or a number out of
    /// range, is a 422 naming the parameter, checked before any arithmetic is done with it.
    func intQuery(_ name: String, range: ClosedRange<Int> = 1...Int(Int32.max)) throws -> Int? {
        guard let text = query(name), !text.isEmpty else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw InventoryError.invalid(ValidationError(
                field: name, message: "'\(text.prefix(20))' is not a whole number from \(range.lowerBound) to \(range.upperBound)"))
        }
        return value
    }

    /// `search`, `page` (1 to `ListQuery.maxPage`) and `per_page` (1 to 100).
    func listQuery() throws -> ListQuery {
        ListQuery(search: try ListQuery.search(query("search")), page: try intQuery("page", range: 1...ListQuery.maxPage) ?? 1,
                  perPage: try intQuery("per_page", range: 1...ListQuery.maxPerPage) ?? ListQuery.defaultPerPage)
    }
}

extension RequestContext {
    /// A numeric path parameter; anything else is a 404, as no such record can exist.
    func id(_ name: String = "id") throws -> Int64 {
        guard let text = parameters.get(name), let value = Int64(text) else {
            throw InventoryError.notFound("\(parameters.get(name) ?? "")")
        }
        return value
    }
}
