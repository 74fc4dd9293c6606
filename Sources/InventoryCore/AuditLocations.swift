import Foundation

/// The locations an audit is narrowed to: checked once here for every back end, and kept in a
/// text column as a JSON array (absent when the audit covers its whole country).
public enum AuditLocations {
    /// Trimmed, without repeats, in the order given; an empty list means the whole country.
    /// Each is free text of at most `FreeText.maxLength`, without control characters.
    public static func normalize(_ raw: [String]) throws -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for item in raw {
            let text: String?
            do { text = try FreeText.normalize(item, field: "locations") } catch { throw InventoryError.invalid(error) }
            guard let text, seen.insert(text).inserted else { continue }
            result.append(text)
        }
        return result
    }

    /// The refusal of locations no asset of `country` is at, naming them and the known ones.
    public static func unknown(_ missing: [String], country: String, known: [String], field: String = "locations") -> InventoryError {
        let names = missing.map { "'\($0)'" }.joined(separator: ", ")
        let list = known.isEmpty ? "it has no asset with a location" : "its locations are \(known.prefix(20).joined(separator: ", "))"
        return .invalid(
            ValidationError(
                field: field,
                message: "\(names) \(missing.count == 1 ? "is not a location" : "are not locations") of \(country)'s assets (\(list))"))
    }

    public static func text(_ locations: [String]?) -> String? {
        guard let locations, !locations.isEmpty, let data = try? JSONEncoder().encode(locations) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    public static func list(_ text: String?) -> [String]? {
        guard let text, let list = try? JSONDecoder().decode([String].self, from: Data(text.utf8)), !list.isEmpty else { return nil }
        return list
    }
}
