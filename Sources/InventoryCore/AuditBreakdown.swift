import Foundation

/// An audit's numbers broken down, as the report's summary has them, without its rows: the
/// expected assets by registered location, the scans by station and by user, and the scans of
/// each hour. Computed in the database, so it stays small whatever the audit's size.
public struct AuditBreakdown: Codable, Sendable, Equatable {
    public var auditId: AuditID
    public var byLocation: [LocationTally]
    public var byStation: [ScanTally]
    public var byUser: [ScanTally]
    /// Scans (voided ones left out) per hour of their time, in time order; hours without scans
    /// are left out.
    public var scansPerHour: [HourTally]

    public init(auditId: AuditID, byLocation: [LocationTally], byStation: [ScanTally], byUser: [ScanTally], scansPerHour: [HourTally]) {
        self.auditId = auditId
        self.byLocation = byLocation
        self.byStation = byStation
        self.byUser = byUser
        self.scansPerHour = scansPerHour
    }
}

/// The scans of one hour: `hour` is its start in UTC (2026-05-12T10:00:00Z).
public struct HourTally: Codable, Sendable, Equatable {
    public var hour: String
    public var scans: Int

    public init(hour: String, scans: Int) {
        self.hour = hour
        self.scans = scans
    }
}
