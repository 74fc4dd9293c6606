import Foundation
import PostgresNIO

/// Reads a row into a `Decodable` model by the model's own field names in snake case
/// (`assetTag` is the column `asset_tag`), as the SQLite store's records do through GRDB's
/// `convertFromSnakeCase`. A model's fields are listed once, in the model, for both back ends,
/// instead of once in each store's mapping.
///
/// A field the row has no column for decodes as nil when it is optional, and is refused by its
/// column's name otherwise. A field's type is one PostgresNIO reads (text, integers, booleans,
/// times), or one decoded from such a value (an enum of strings).
struct PGRowDecoder: Decoder {
    let row: PostgresRandomAccessRow
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func decode<T: Decodable>(_ type: T.Type, from row: PostgresRandomAccessRow) throws -> T {
        try T(from: PGRowDecoder(row: row))
    }

    /// The column a field is read from: each upper-case letter becomes `_` and the letter in
    /// lower case (`imageUrl` is `image_url`).
    static func column(_ key: some CodingKey) -> String {
        var column = ""
        for character in key.stringValue {
            if character.isUppercase { column += "_" + character.lowercased() } else { column.append(character) }
        }
        return column
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Columns<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: [], debugDescription: "a row is read as a record, not a list"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: [], debugDescription: "a row is read as a record, not one value"))
    }
}

/// A row's columns, by field.
private struct Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: PostgresRandomAccessRow
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { row.contains(PGRowDecoder.column(key)) }

    func decodeNil(forKey key: Key) throws -> Bool { try cell(key).bytes == nil }

    /// Every field's type, the standard ones included: one generic reading serves them all.
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try PGCellDecoder(cell: try cell(key), key: key).decode(T.self)
    }

    private func cell(_ key: Key) throws -> PostgresCell {
        let column = PGRowDecoder.column(key)
        guard row.contains(column) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "the row has no column \(column)"))
        }
        return row[column]
    }

    func nestedContainer<Nested: CodingKey>(keyedBy type: Nested.Type, forKey key: Key) throws -> KeyedDecodingContainer<Nested> {
        throw Self.flat(key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw Self.flat(key) }
    func superDecoder() throws -> any Decoder { throw Self.flat(nil) }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw Self.flat(key) }

    private static func flat(_ key: Key?) -> DecodingError {
        .typeMismatch(Any.self, .init(codingPath: key.map { [$0] } ?? [], debugDescription: "a row's columns hold single values"))
    }
}

/// One column's value, as the single value of a field's type.
private struct PGCellDecoder: Decoder, SingleValueDecodingContainer {
    let cell: PostgresCell
    let key: any CodingKey
    var codingPath: [any CodingKey] { [key] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw single() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw single() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { cell.bytes == nil }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard let native = T.self as? any PostgresDecodable.Type else { return try T(from: self) }
        guard let value = try read(native) as? T else { throw single() }
        return value
    }

    private func read<Value: PostgresDecodable>(_ type: Value.Type) throws -> Value { try cell.decode(Value.self) }

    private func single() -> DecodingError {
        .typeMismatch(Any.self, .init(codingPath: [key], debugDescription: "the column \(cell.columnName) holds a single value"))
    }
}
