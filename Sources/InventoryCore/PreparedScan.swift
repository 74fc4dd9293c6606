import Foundation

/// A scan's fields after their checks, ready to store: what every store does with a
/// `ScanRequest` before its transaction, in one place, so the SQLite and PostgreSQL back ends
/// accept and refuse exactly the same scans.
public struct PreparedScan: Sendable {
    public var identifier: String
    public var scanID: String
    public var station: String
    public var user: String
    public var source: ScanSource
    public var scannedAt: Date
    /// The request gave `scanned_at` (a station's clock, corrected when it sent its clock);
    /// otherwise `scannedAt` is this machine's time of receipt.
    public var timeGiven: Bool
    public var auditID: AuditID?
    public var location: String?

    /// Checks and normalises the request's fields. A missing `scan_id` gets a new one, a missing
    /// station the store's own name, a missing user "unknown", a missing time now. Field
    /// problems are `InventoryError.invalid`, naming the field.
    public init(_ request: ScanRequest, defaultStation: String, now: Date = Date()) throws {
        do {
            identifier = try Identifier.normalize(request.identifier)
            scanID = try request.scanId.map { try Identifier.normalize($0, field: "scan_id") } ?? UUID().uuidString.lowercased()
            station = try request.deviceName.flatMap { try FreeText.normalize($0, field: "device_name") } ?? defaultStation
            user = try request.user.flatMap { try FreeText.normalize($0, field: "user") } ?? "unknown"
            scannedAt = try Self.scanTime(request.scannedAt, now: now)
            location = try FreeText.optional(request.location, field: "location")
        } catch let error as ValidationError {
            throw InventoryError.invalid(error)
        }
        source = request.source ?? .manual
        auditID = request.auditId
        timeGiven = request.scannedAt != nil
    }

    /// When a scan was made: now when not given; otherwise from 2000 to a day ahead of this
    /// machine's clock (a station's clock may run a little fast). Anything else is a clock or a
    /// client gone wrong, and would print as nonsense in the report.
    public static func scanTime(_ given: Date?, now: Date = Date()) throws(ValidationError) -> Date {
        guard let given else { return now }
        let earliest = Date(timeIntervalSince1970: 946_684_800) // 2000-01-01T00:00:00Z
        guard given >= earliest, given <= now.addingTimeInterval(86_400) else {
            throw ValidationError(
                field: "scanned_at", message: "\(ISOTime.string(given)) is not a time a scan could have been made (2000 to a day from now)")
        }
        return given
    }
}

extension PreparedScan {
    /// The first step of a batch: each request checked by `prepare`. The answers start as
    /// "not stored", with each refused request's own error in its place; the prepared scans
    /// keep the index of their request.
    public static func batch(_ requests: [ScanRequest], _ prepare: (ScanRequest) throws -> PreparedScan)
        -> (results: [Result<ScanResult, InventoryError>], prepared: [(index: Int, scan: PreparedScan)])
    {
        var results = [Result<ScanResult, InventoryError>](repeating: .failure(.storage("not stored")), count: requests.count)
        var prepared: [(index: Int, scan: PreparedScan)] = []
        for (index, request) in requests.enumerated() {
            do { prepared.append((index, try prepare(request))) } catch {
                results[index] = .failure(InventoryError(error) ?? .storage("\(error)"))
            }
        }
        return (results, prepared)
    }
}
