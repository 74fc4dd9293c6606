import Foundation

/// An audit's numbers and its expected assets by registered location, read together from one
/// snapshot of the store, so the per-location numbers add up to the audit's own.
public struct LocationProgress: Codable, Sendable, Equatable {
    public var auditId: AuditID
    public var progress: AuditProgress
    /// One tally per registered location (nil: none), by name, the unnamed last.
    public var locations: [LocationTally]
    /// Expected assets counted as found whose location this store cannot tell yet: a connected
    /// station's copy learns other stations' finds only as the server tells it of them.
    public var foundElsewhere: Int

    public init(auditId: AuditID, progress: AuditProgress, locations: [LocationTally], foundElsewhere: Int = 0) {
        self.auditId = auditId
        self.progress = progress
        self.locations = locations
        self.foundElsewhere = foundElsewhere
    }
}
