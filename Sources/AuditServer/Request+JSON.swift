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
        return try JSONBody.decode(type, from: data)
    }

    /// A scan's photo sent as the body (`image/jpeg`, at most `ScanPhoto.maxBytes`), taken at
    /// the `taken_at` query parameter (now when absent). Over the limit, or not a JPEG, is a 422
    /// naming the photo, read no further than one byte past the limit.
    mutating func scanPhoto(scanID: String) async throws -> ScanPhoto {
        let type = headers[.contentType]?.lowercased() ?? ""
        guard type.hasPrefix(ScanPhoto.contentType) else {
            throw InventoryError.invalid(
                ValidationError(field: "photo", message: "must be sent as \(ScanPhoto.contentType), not '\(type.prefix(40))'"))
        }
        let buffer: ByteBuffer
        do { buffer = try await collectBody(upTo: ScanPhoto.maxBytes) } catch is NIOTooManyBytesError {
            throw InventoryError.invalid(
                ValidationError(field: "photo", message: "is over \(ScanPhoto.maxBytes) bytes; a scan's photo is a JPEG of at most 200 KB"))
        }
        let now = Date()
        var takenAt = now
        if let text = query("taken_at") {
            guard let date = ISOTime.parse(text) else {
                throw InventoryError.invalid(ValidationError(field: "taken_at", message: "'\(text.prefix(40))' is not an ISO 8601 time"))
            }
            // A photo is never taken after it arrives: a later time (a wrong clock, or year 9999)
            // is the server's, so the retention still prunes it.
            takenAt = min(date, now)
        }
        return try ScanPhoto.received(scanId: scanID, jpeg: Data(buffer.readableBytesView), takenAt: takenAt)
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
            throw InventoryError.invalid(
                ValidationError(
                    field: name, message: "'\(text.prefix(20))' is not a whole number from \(range.lowerBound) to \(range.upperBound)"))
        }
        return value
    }

    /// A yes/no query parameter: `true` or `false` (any case); anything else is a 422 naming it.
    func boolQuery(_ name: String) throws -> Bool? {
        guard let text = query(name), !text.isEmpty else { return nil }
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default: throw InventoryError.invalid(ValidationError(field: name, message: "'\(text.prefix(20))' is not true or false"))
        }
    }

    /// The audit history's `location`, `from` and `to` (days, YYYY-MM-DD, both included).
    func historyFilter(country: String?) throws -> AuditHistoryFilter {
        var errors = ValidationError()
        var filter = AuditHistoryFilter(country: country)
        if let location = query("location"), !location.isEmpty {
            filter.location = errors.collect { () throws(ValidationError) in try FreeText.required(location, field: "location") }
        }
        if let from = query("from"), !from.isEmpty {
            filter.startedFrom = errors.collect { () throws(ValidationError) in try AuditHistoryFilter.day(from, field: "from") }
        }
        if let to = query("to"), !to.isEmpty {
            filter.startedBefore = errors.collect { () throws(ValidationError) in try AuditHistoryFilter.day(to, field: "to") }?
                .addingTimeInterval(86_400)
        }
        guard errors.isEmpty else { throw InventoryError.invalid(errors) }
        return filter
    }

    /// `search`, `page` (1 to `ListQuery.maxPage`) and `per_page` (1 to 100).
    func listQuery() throws -> ListQuery {
        ListQuery(
            search: try ListQuery.search(query("search")), page: try intQuery("page", range: 1...ListQuery.maxPage) ?? 1,
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
