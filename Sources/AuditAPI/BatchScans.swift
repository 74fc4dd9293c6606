import Foundation
import InventoryCore

/// `POST /api/v1/audit/scans`: up to `limit` scans, each with its `scan_id`.
public struct BatchScanRequest: Codable, Sendable, Equatable {
    public static let limit = 500
    public var scans: [ScanRequest]
    /// The station's clock when it sent the batch: the server corrects the scans' times by its
    /// difference from its own clock (`LateScans`).
    public var stationClock: Date?
    /// The sending station's name, and the scans still waiting in its outbox besides these
    /// (`StationReport`).
    public var deviceName: String?
    public var waiting: Int?

    public init(scans: [ScanRequest], stationClock: Date? = nil, deviceName: String? = nil, waiting: Int? = nil) {
        self.scans = scans
        self.stationClock = stationClock
        self.deviceName = deviceName
        self.waiting = waiting
    }
}

/// One answer per scan, in the order sent: the outcome as `/scan` gives it, or the error
/// `/scan` would have answered (with the HTTP status it would have had), so a station can tell
/// a scan to drop (a 4xx) from one to send again (a 5xx).
public struct BatchScanItem: Codable, Sendable, Equatable {
    public var scanId: String?
    public var success: Bool
    public var status: Int
    public var data: ScanResult?
    public var error: String?
    public var message: String?
    public var errors: [String: [String]]?

    public init(scanId: String?, result: ScanResult) {
        self.scanId = scanId
        success = true
        status = 200
        data = result
    }

    public init(scanId: String?, failure: FailureEnvelope, status: Int) {
        self.scanId = scanId
        success = false
        self.status = status
        error = failure.error
        message = failure.message
        errors = failure.errors
    }

    /// An answer as it came, such as a client reads from another server.
    public init(
        scanId: String?, success: Bool, status: Int, data: ScanResult?, error: String?, message: String?,
        errors: [String: [String]]? = nil
    ) {
        self.scanId = scanId
        self.success = success
        self.status = status
        self.data = data
        self.error = error
        self.message = message
        self.errors = errors
    }
}

public struct BatchScanResponse: Codable, Sendable, Equatable {
    public var results: [BatchScanItem]

    public init(results: [BatchScanItem]) { self.results = results }
}
