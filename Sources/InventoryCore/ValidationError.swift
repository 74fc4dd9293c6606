import Foundation

/// Field errors found while validating input: `{"field": ["message", …]}`.
public struct ValidationError: Error, Sendable, Equatable, LocalizedError {
    public private(set) var fields: [String: [String]]

    public init(fields: [String: [String]] = [:]) { self.fields = fields }
    public init(field: String, message: String) { self.fields = [field: [message]] }

    public var isEmpty: Bool { fields.isEmpty }

    public mutating func add(_ field: String, _ message: String) {
        fields[field, default: []].append(message)
    }

    public mutating func merge(_ other: ValidationError) {
        for (field, messages) in other.fields { fields[field, default: []].append(contentsOf: messages) }
    }

    /// Runs `body`, collecting its validation error instead of throwing it.
    public mutating func collect<T>(_ body: () throws(ValidationError) -> T) -> T? {
        do { return try body() } catch {
            merge(error)
            return nil
        }
    }

    public var errorDescription: String? {
        fields.keys.sorted().map { field in
            fields[field, default: []].map { "\(field) \($0)" }.joined(separator: "; ")
        }.joined(separator: "; ")
    }
}
