/// An optional property that the JSON always carries: `null` when absent, where Swift's
/// synthesized encoder would leave the key out. The pages and the API's clients then never meet
/// a missing field. A missing key (or a null) decodes as absent.
///
///     struct CameraState: Encodable {
///         var state: Phase
///         @Nullable var device: String? = nil
///     }
///
/// The type keeps its synthesized `Codable`, `Equatable` and memberwise initializer; only the
/// marked properties change how they are written.
@propertyWrapper
public struct Nullable<Value> {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }
}

extension Nullable: Sendable where Value: Sendable {}
extension Nullable: Equatable where Value: Equatable {}
extension Nullable: Hashable where Value: Hashable {}

extension Nullable: Encodable where Value: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension Nullable: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// A `Nullable` property whose key is missing decodes as absent (the synthesized decoder
    /// asks for the key with `decode`, which would throw).
    public func decode<Value: Decodable>(_ type: Nullable<Value>.Type, forKey key: Key) throws -> Nullable<Value> {
        Nullable(wrappedValue: try decodeIfPresent(Value.self, forKey: key))
    }
}
