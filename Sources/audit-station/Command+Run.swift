import ArgumentParser
import Foundation
import InventoryCore
import Station

/// Runs a command body, turning any failure into one clear line on standard error and a
/// non-zero exit.
func runReportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as ExitCode {
        throw error
    } catch let error as CleanExit {
        throw error
    } catch {
        Terminal.error("error: \(describe(error))")
        throw ExitCode.failure
    }
}

/// Options that pick the running audit a command acts on.
struct AuditChoice: ParsableArguments {
    @Option(help: "The country whose running audit to use (when several run).")
    var country: String?

    @Option(name: .customLong("audit"), help: "The id of the audit to use.")
    var auditID: String?
}

/// Paging options of list commands.
struct PageOptions: ParsableArguments {
    @Option(help: "Only entries that match this text.") var search: String?
    @Option(parsing: .unconditional, help: "The page to show (from 1).") var page = 1
    @Option(name: .customLong("per-page"), parsing: .unconditional, help: "Entries a page (at most 100).") var perPage = 20
    @Flag(help: "Print JSON.") var json = false

    var query: ListQuery { ListQuery(search: search, page: page, perPage: perPage) }

    func validate() throws {
        try checkPage(page)
        guard (1...ListQuery.maxPerPage).contains(perPage) else {
            throw ArgumentParser.ValidationError("--per-page must be between 1 and \(ListQuery.maxPerPage), not \(perPage)")
        }
    }
}

/// A `--page` of the command line: pages count from 1 (the API takes any number and shows the
/// nearest page; a person who types 0 or 10000000000 is told instead).
func checkPage(_ page: Int) throws {
    guard (1...ListQuery.maxPage).contains(page) else {
        throw ArgumentParser.ValidationError("--page counts from 1 (at most \(ListQuery.maxPage)), not \(page)")
    }
}

extension Pagination {
    var footer: String { "page \(page) of \(lastPage), \(total) in all" }
}

/// A location given on the command line, checked as every store checks it.
func checkedLocation(_ raw: String) throws -> String {
    guard let location = try? FreeText.normalize(raw, field: "location") else {
        throw StationError.usage("--location '\(raw.prefix(40))' is not a location: it is empty or holds control characters")
    }
    return location
}
