import Foundation
import InventoryCore

/// Reading answers from any server that speaks the audit API: a field SPEC marks optional may
/// be missing, null or of another JSON type, and fields this station does not know are
/// ignored. Keys are camelCase because the station's decoder converts snake_case first.
package struct AnyKey: CodingKey {
    package var stringValue: String
    package var intValue: Int? { nil }
    package init(_ name: String) { stringValue = name }
    package init(stringValue: String) { self.stringValue = stringValue }
    package init?(intValue: Int) { nil }
}

package typealias LenientContainer = KeyedDecodingContainer<AnyKey>

extension LenientContainer {
    /// The value, or nil when it is missing, null or not of this type.
    package func optional<T: Decodable>(_ name: String, as type: T.Type = T.self) -> T? {
        (try? decodeIfPresent(type, forKey: AnyKey(name))) ?? nil
    }

    /// A value the station cannot do without; its absence is a readable decoding error.
    package func required<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let value = optional(name, as: type) else {
            throw DecodingError.keyNotFound(AnyKey(name), .init(codingPath: codingPath, debugDescription: "\(name) is missing or not a \(T.self)"))
        }
        return value
    }

    /// Text, also when the server sends a number (ids, `started_by` as a user id).
    package func text(_ name: String) -> String? {
        if let text = optional(name, as: String.self) { return text }
        if let number = optional(name, as: Int64.self) { return String(number) }
        if let number = optional(name, as: Double.self) { return String(number) }
        return nil
    }

    /// A whole number, also when the server sends it as text or with a fraction.
    package func integer(_ name: String) -> Int? {
        if let number = optional(name, as: Int.self) { return number }
        if let number = optional(name, as: Double.self), number.isFinite, abs(number) < 1e15 { return Int(number) }
        return text(name).flatMap { Int($0) }
    }

    /// A boolean, also as 0/1 or "true"/"false".
    package func flag(_ name: String) -> Bool? {
        if let value = optional(name, as: Bool.self) { return value }
        if let number = optional(name, as: Int.self) { return number != 0 }
        return optional(name, as: String.self).flatMap { ["true": true, "false": false, "1": true, "0": false][$0.lowercased()] }
    }

    /// An enum by its raw value, also in the other case ("staff" for STAFF).
    package func choice<T: RawRepresentable>(_ name: String, as type: T.Type = T.self) -> T? where T.RawValue == String {
        guard let raw = optional(name, as: String.self) else { return nil }
        return T(rawValue: raw) ?? T(rawValue: raw.uppercased()) ?? T(rawValue: raw.lowercased())
    }

    package func has(_ name: String) -> Bool { contains(AnyKey(name)) }
}

extension Decoder {
    package func lenient() throws -> LenientContainer { try container(keyedBy: AnyKey.self) }
}

/// The lenient layer over the API's own types: a type of `AuditAPI` or `InventoryCore` that the
/// station also reads from any server's answer, by the rules above. Its `Codable` stays what our
/// server writes and reads; this is the one other way to read it, and the client declares no
/// second copy of a body.
package protocol LenientDecodable: Sendable {
    /// Reads the value; most take `decoder.lenient()`, some also a bare value (a list, a code).
    init(lenient decoder: any Decoder) throws
}

/// Reads `Value` through its lenient layer: `client.send(…, as: Lenient<ScanResult>.self).value`.
package struct Lenient<Value: LenientDecodable>: Decodable, Sendable {
    package var value: Value

    package init(from decoder: any Decoder) throws { value = try Value(lenient: decoder) }
}

extension LenientContainer {
    /// A nested value read through its lenient layer; nil when it is missing or unreadable.
    package func lenient<T: LenientDecodable>(_ name: String, as type: T.Type = T.self) -> T? {
        optional(name, as: Lenient<T>.self)?.value
    }

    /// A nested list read through its elements' lenient layer; nil when missing or unreadable.
    package func lenientList<T: LenientDecodable>(_ name: String, of type: T.Type = T.self) -> [T]? {
        optional(name, as: [Lenient<T>].self)?.map(\.value)
    }
}
