import Foundation
import InventoryCore
import Testing

@Suite("Errors and paging")
struct ErrorAndPagingTests {
    static let everyError: [InventoryError] = [
        .invalid(ValidationError(field: "country", message: "'XX' is not an ISO 3166-1 alpha-2 country code")),
        .notFound("asset 12"), .duplicate(field: "asset_tag", value: "SG-1"),
        .auditAlreadyActive(country: "SG", auditID: "3f2a"), .noActiveAudit(country: nil), .noActiveAudit(country: "MY"),
        .ambiguousAudit(countries: ["MY", "SG"]), .auditEnded("3f2a"), .auditRunning("3f2a"), .stationsOut(auditID: "3f2a", stations: ["kiosk-2"]),
        .inUse("Customer Acme still has 1 asset assigned"),
        .forbidden("editing assets"), .unauthorized("Log in again"), .storage("the disk is full"), .unavailable("server down")
    ]

    @Test("Every error has a stable code and a message naming what went wrong", arguments: everyError)
    func messages(error: InventoryError) {
        let message = error.errorDescription ?? ""
        #expect(!message.isEmpty && ErrorCode.services.contains(error.code))
        switch error {
        case .auditAlreadyActive(let country, let id): #expect(message.contains(country) && message.contains(id))
        case .ambiguousAudit: #expect(message.contains("MY, SG") && message.contains("--country"))
        case .noActiveAudit(let country?): #expect(message.contains("--country \(country)"))
        case .duplicate(let field, let value): #expect(message.contains(field) && message.contains(value))
        case .invalid: #expect(message.contains("country 'XX'"))
        default: break
        }
    }

    @Test("Error codes are one list: each code once, in capitals and underscores")
    func codesAreOneList() {
        let raw = ErrorCode.allCases.map(\.rawValue)
        #expect(Set(raw).count == raw.count)
        #expect(raw.allSatisfy { $0.allSatisfy { $0.isUppercase || $0 == "_" } })
        #expect(Set(Self.everyError.map(\.code)) == ErrorCode.services)
    }

    @Test func fieldErrorsBecomeInvalidAndOtherErrorsStayUnknown() {
        let fields = ValidationError(field: "name", message: "is required")
        #expect(InventoryError(fields) == .invalid(fields))
        #expect(InventoryError(InventoryError.auditEnded("a")) == .auditEnded("a"))
        #expect(InventoryError(CocoaError(.fileNoSuchFile)) == nil)
        var merged = ValidationError()
        merged.add("b", "two")
        merged.merge(ValidationError(fields: ["a": ["one"], "b": ["three"]]))
        #expect(merged.fields == ["a": ["one"], "b": ["two", "three"]])
        #expect(merged.errorDescription == "a one; b two; b three")
    }

    @Test(
        "Paging: per_page defaults to 20 and is at most 100; pages start at 1",
        arguments: [
            (ListQuery(), 1, 20, 0), (ListQuery(page: 3, perPage: 10), 3, 10, 20), (ListQuery(page: 0, perPage: 0), 1, 1, 0),
            (ListQuery(page: -4, perPage: 500), 1, 100, 0), (ListQuery(page: 2, perPage: 100), 2, 100, 100)
        ])
    func paging(query: ListQuery, page: Int, perPage: Int, offset: Int) {
        #expect(query.page == page && query.perPage == perPage && query.offset == offset)
    }

    @Test func lastPageCountsAPartPageAndIsAtLeastOne() {
        #expect(Pagination(query: ListQuery(perPage: 10), total: 0).lastPage == 1)
        #expect(Pagination(query: ListQuery(perPage: 10), total: 10).lastPage == 1)
        #expect(Pagination(query: ListQuery(perPage: 10), total: 11).lastPage == 2)
        #expect(Pagination(query: ListQuery(perPage: 100), total: 1_000_000).lastPage == 10_000)
    }

    @Test func blankSearchesAreNoSearch() {
        #expect(ListQuery(search: "   ").search == nil)
        #expect(ListQuery(search: " desk ").search == "desk")
    }
}
