import Foundation

/// Page, size and search of a list. per_page defaults to 20 and is at most 100.
public struct ListQuery: Codable, Sendable, Equatable {
    public static let defaultPerPage = 20
    public static let maxPerPage = 100
    /// Far beyond any real list, and small enough that `offset` can never overflow.
    public static let maxPage = 10_000_000

    public var search: String?
    public var page: Int
    public var perPage: Int

    public init(search: String? = nil, page: Int = 1, perPage: Int = ListQuery.defaultPerPage) {
        let trimmed = search?.trimmingCharacters(in: .whitespacesAndNewlines)
        self.search = trimmed?.isEmpty == true ? nil : trimmed
        self.page = min(max(1, page), ListQuery.maxPage)
        self.perPage = min(max(1, perPage), ListQuery.maxPerPage)
    }

    public var offset: Int { (page - 1) * perPage }

    /// Longest search text accepted, in characters. A search is a tag, a serial or a name.
    public static let maxSearchLength = 200

    /// A search typed by a person or sent by a client: trimmed, at most `maxSearchLength`
    /// characters, no control characters. Empty is no search.
    public static func search(_ raw: String?) throws(ValidationError) -> String? {
        guard let text = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        guard text.count <= maxSearchLength else {
            throw ValidationError(field: "search", message: "is \(text.count) characters long; the limit is \(maxSearchLength)")
        }
        guard !text.unicodeScalars.contains(where: FreeText.isRefused) else {
            throw ValidationError(field: "search", message: "contains control characters")
        }
        return text
    }
}

public struct Pagination: Codable, Sendable, Equatable {
    public var page: Int
    public var perPage: Int
    public var total: Int
    public var lastPage: Int

    public init(query: ListQuery, total: Int) {
        page = query.page
        perPage = query.perPage
        self.total = total
        lastPage = max(1, (total + query.perPage - 1) / query.perPage)
    }
}

public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    public var pagination: Pagination

    public init(items: [Item], pagination: Pagination) {
        self.items = items
        self.pagination = pagination
    }
}

extension Page: Equatable where Item: Equatable {}
