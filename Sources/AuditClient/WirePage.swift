import Foundation
import InventoryCore

/// A page of a list as any server sends it: one array (`assets`, `audits`, …, or `data`/`items`)
/// and `pagination` `{page, per_page, total, last_page}`. Missing pagination fields are worked
/// out from what came, so a server that leaves them out still pages to the end.
package struct WirePage<Item: Decodable & Sendable>: Decodable, Sendable {
    package var items: [Item]
    package var pagination: Pagination

    package init(from decoder: any Decoder) throws {
        let fields = try decoder.lenient()
        let preferred = ["assets", "audits", "items", "data", "accessories", "customers"]
        let names = preferred.filter(fields.has) + fields.allKeys.map(\.stringValue).filter { !preferred.contains($0) && $0 != "pagination" }
        guard let list = names.lazy.compactMap({ fields.optional($0, as: [Item].self) }).first else {
            throw DecodingError.keyNotFound(AnyKey("assets"), .init(codingPath: fields.codingPath, debugDescription: "no list in the answer"))
        }
        items = list
        let paging = try? fields.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("pagination"))
        let page = paging?.integer("page") ?? paging?.integer("currentPage") ?? 1
        let perPage = max(1, paging?.integer("perPage") ?? max(list.count, 1))
        let total = paging?.integer("total") ?? ((page - 1) * perPage + list.count)
        var pagination = Pagination(query: ListQuery(page: page, perPage: min(perPage, ListQuery.maxPerPage)), total: total)
        pagination.perPage = perPage
        pagination.lastPage = paging?.integer("lastPage") ?? max(1, (total + perPage - 1) / perPage)
        self.pagination = pagination
    }

    package var page: Page<Item> { Page(items: items, pagination: pagination) }
}
