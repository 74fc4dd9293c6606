import Foundation

public typealias AuditID = String

/// Who did something, and where: every scan records both.
public struct Actor: Codable, Sendable, Equatable {
    /// The user: the logged-in user, or in standalone mode `--user` or the process's login name.
    public var user: String
    /// The station: from the config, or the host name.
    public var station: String

    public init(user: String, station: String) {
        self.user = user
        self.station = station
    }
}

/// The numbers of an audit. missing = total - scanned; completion is 100% when total is 0.
public struct AuditProgress: Codable, Sendable, Equatable {
    public var totalAssets: Int
    public var scannedCount: Int
    public var missingCount: Int
    public var unexpectedCount: Int
    /// Percent, rounded to two decimals.
    public var completionPercentage: Double
    /// Orders the audit's numbers: it rises in the same transaction as every change to them (a
    /// scan that counts, a void, a late scan, the end), so of two readings the one with the
    /// higher revision is the newer. Readers keep the highest they have seen (`supersedes`).
    /// Absent from servers that speak only the seeds' API.
    public var revision: Int?

    public init(totalAssets: Int, scannedCount: Int, unexpectedCount: Int, revision: Int? = nil) {
        self.revision = revision
        self.totalAssets = totalAssets
        self.scannedCount = scannedCount
        self.missingCount = totalAssets - scannedCount
        self.unexpectedCount = unexpectedCount
        self.completionPercentage =
            totalAssets == 0
            ? 100 : (Double(scannedCount) * 10_000 / Double(totalAssets)).rounded(.down) / 100
    }

    /// The same numbers, whatever their revisions: the revision orders readings, it is not one
    /// of the numbers.
    public static func == (lhs: AuditProgress, rhs: AuditProgress) -> Bool {
        lhs.totalAssets == rhs.totalAssets && lhs.scannedCount == rhs.scannedCount && lhs.missingCount == rhs.missingCount
            && lhs.unexpectedCount == rhs.unexpectedCount && lhs.completionPercentage == rhs.completionPercentage
    }

    /// The same numbers without their revision: numbers from another source than the reader's
    /// usual one (a connected station passing on the server's own reading), whose revision is on
    /// another scale and orders nothing here.
    public var unordered: AuditProgress {
        var copy = self
        copy.revision = nil
        return copy
    }

    /// Whether these numbers may replace `shown`: they are not older. Without a revision on
    /// either side nothing orders them, and the newer arrival wins.
    public func supersedes(_ shown: AuditProgress?) -> Bool {
        guard let shown, let mine = revision, let theirs = shown.revision else { return true }
        return mine >= theirs
    }
}

/// One audit of one country. Its numbers are those of `progress`, kept flat as the API sends them.
public struct AuditSession: Codable, Sendable, Equatable {
    public var id: AuditID
    public var country: String
    public var totalAssets = 0
    public var scannedCount = 0
    public var missingCount = 0
    public var unexpectedCount = 0
    public var completionPercentage: Double = 0
    /// The revision of the numbers (`AuditProgress.revision`).
    public var revision: Int?
    public var startedAt: Date
    /// The name of the user who started it.
    public var startedBy: String
    public var endedAt: Date?
    public var endedBy: String?
    public var isActive: Bool
    /// The locations the audit is narrowed to; absent when it covers the whole country.
    public var locations: [String]?
    /// Scans that arrived after the audit had ended and were accepted because they were made
    /// before it (`LateScans`); absent from servers that do not accept them.
    public var lateScanCount: Int?

    public init(
        id: AuditID, country: String, progress: AuditProgress, startedAt: Date, startedBy: String,
        endedAt: Date? = nil, endedBy: String? = nil, locations: [String]? = nil, lateScanCount: Int? = nil
    ) {
        self.id = id
        self.lateScanCount = lateScanCount
        self.country = country
        self.locations = locations?.isEmpty == true ? nil : locations
        self.startedAt = startedAt
        self.startedBy = startedBy
        self.endedAt = endedAt
        self.endedBy = endedBy
        self.isActive = endedAt == nil
        self.progress = progress
    }

    /// The session with its numbers' revision left out (`AuditProgress.unordered`).
    public var unordered: AuditSession {
        var copy = self
        copy.revision = nil
        return copy
    }

    /// The audit's numbers. Setting them is the one way a session takes new numbers: the
    /// missing count and the completion come with them, never set apart.
    public var progress: AuditProgress {
        get { AuditProgress(totalAssets: totalAssets, scannedCount: scannedCount, unexpectedCount: unexpectedCount, revision: revision) }
        set {
            revision = newValue.revision
            totalAssets = newValue.totalAssets
            scannedCount = newValue.scannedCount
            missingCount = newValue.missingCount
            unexpectedCount = newValue.unexpectedCount
            completionPercentage = newValue.completionPercentage
        }
    }
}

public enum AuditList: String, Codable, Sendable, CaseIterable {
    case all, scanned, missing, unexpected
    /// Expected assets found first at a location other than the one they are registered at.
    case misplaced
}

/// Where a scan came from.
public enum ScanSource: String, Codable, Sendable, CaseIterable {
    case camera, image, manual
}

/// An asset's place in an audit report: found, still missing, or not expected here.
public enum AuditOutcome: String, Codable, Sendable {
    case scanned, missing, unexpected
    /// In reports only: scanned, first at a location other than the registered one.
    case misplaced
}

/// Why a scanned identifier is not part of the expected set.
public enum UnexpectedReason: String, Codable, Sendable {
    /// The asset is registered in another country.
    case otherCountry = "other_country"
    case archived
    case disposed
    /// A known asset of this country that was not in the set fixed when the audit started.
    case notInExpectedSet = "not_in_expected_set"
    /// An asset of this country registered at a location the audit does not cover.
    case otherLocation = "other_location"
    /// No asset has this identifier.
    case unknown
}

/// The first scan of an asset or identifier in an audit.
public struct FirstScan: Codable, Sendable, Equatable {
    public var scannedAt: Date
    public var station: String
    public var user: String
    public var source: ScanSource
    /// Where the station stood, when it knew.
    public var location: String?
    /// When the scan reached the server, if that was after the audit had ended (`LateScans`).
    public var arrivedLateAt: Date?

    public init(scannedAt: Date, station: String, user: String, source: ScanSource, location: String? = nil, arrivedLateAt: Date? = nil) {
        self.arrivedLateAt = arrivedLateAt
        self.scannedAt = scannedAt
        self.station = station
        self.user = user
        self.source = source
        self.location = location
    }
}

/// An entry in an audit list or report: the asset fields (all nil for an unknown identifier)
/// and what the audit knows about it.
public struct AuditAsset: Codable, Sendable, Equatable {
    public var id: Int64?
    public var assetTag: String?
    public var serialNum: String?
    public var name: String?
    public var model: String?
    public var status: AssetStatus?
    public var location: String?
    public var company: String?
    public var country: String?
    /// What was scanned (unexpected entries), or the asset tag.
    public var identifier: String
    public var outcome: AuditOutcome
    public var reason: UnexpectedReason?
    public var firstScannedAt: Date?
    public var scanCount: Int
    public var station: String?
    public var user: String?
    public var source: ScanSource?
    /// Where the first scan was made, when the station knew its location.
    public var foundLocation: String?
    /// Found at a location other than the one the asset is registered at (still counted as found).
    public var misplaced: Bool?
    /// The first scan reached the server after the audit had ended, at this time (`LateScans`).
    public var arrivedLateAt: Date?

    public init(
        asset: AssetBrief?, identifier: String, outcome: AuditOutcome, reason: UnexpectedReason? = nil,
        firstScan: FirstScan? = nil, scanCount: Int = 0
    ) {
        self.id = asset?.id
        self.assetTag = asset?.assetTag
        self.serialNum = asset?.serialNum
        self.name = asset?.name
        self.model = asset?.model
        self.status = asset?.status
        self.location = asset?.location
        self.company = asset?.company
        self.country = asset?.country
        self.identifier = identifier
        self.outcome = outcome
        self.reason = reason
        self.firstScannedAt = firstScan?.scannedAt
        self.station = firstScan?.station
        self.user = firstScan?.user
        self.source = firstScan?.source
        self.scanCount = scanCount
        self.foundLocation = firstScan?.location
        self.arrivedLateAt = firstScan?.arrivedLateAt
        self.misplaced = outcome == .scanned ? AuditRules.isMisplaced(registered: asset?.location, found: firstScan?.location) : false
    }

    public var firstScan: FirstScan? {
        guard let firstScannedAt, let station, let user, let source else { return nil }
        return FirstScan(
            scannedAt: firstScannedAt, station: station, user: user, source: source, location: foundLocation, arrivedLateAt: arrivedLateAt)
    }

    private enum CodingKeys: String, CodingKey {
        case id, assetTag, serialNum, name, model, status, location, company, country, identifier, outcome, reason
        case firstScannedAt, scanCount, station, user, source, foundLocation, misplaced, arrivedLateAt
    }

    /// Every field is written, as null when absent: an unknown identifier's asset fields are
    /// null, as the API promises, rather than missing.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(assetTag, forKey: .assetTag)
        try container.encode(serialNum, forKey: .serialNum)
        try container.encode(name, forKey: .name)
        try container.encode(model, forKey: .model)
        try container.encode(status, forKey: .status)
        try container.encode(location, forKey: .location)
        try container.encode(company, forKey: .company)
        try container.encode(country, forKey: .country)
        try container.encode(identifier, forKey: .identifier)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(reason, forKey: .reason)
        try container.encode(firstScannedAt, forKey: .firstScannedAt)
        try container.encode(scanCount, forKey: .scanCount)
        try container.encode(station, forKey: .station)
        try container.encode(user, forKey: .user)
        try container.encode(source, forKey: .source)
        try container.encode(foundLocation, forKey: .foundLocation)
        try container.encode(misplaced ?? false, forKey: .misplaced)
        try container.encode(arrivedLateAt, forKey: .arrivedLateAt)
    }
}

/// What `end` returns: the frozen audit and its lists. Lists longer than `listLimit` are cut,
/// and `missingTotal`/`unexpectedTotal` give the full counts (the report has every row).
public struct AuditSummary: Codable, Sendable, Equatable {
    public static let listLimit = 1000
    public var audit: AuditSession
    public var durationSeconds: Int
    public var missing: [AuditAsset]
    public var unexpected: [AuditAsset]
    /// Scans per station and per user (absent from servers that do not count them).
    public var byStation: [ScanTally]?
    public var byUser: [ScanTally]?

    public init(
        audit: AuditSession, missing: [AuditAsset], unexpected: [AuditAsset], byStation: [ScanTally]? = nil,
        byUser: [ScanTally]? = nil
    ) {
        self.audit = audit
        self.durationSeconds = Int(((audit.endedAt ?? Date()).timeIntervalSince(audit.startedAt)).rounded())
        self.missing = missing
        self.unexpected = unexpected
        self.byStation = byStation
        self.byUser = byUser
    }
}

/// Countries a user may audit, with their expected asset counts.
public struct CountryCount: Codable, Sendable, Equatable {
    public var country: String
    public var expectedAssets: Int
    public var activeAuditId: AuditID?

    public init(country: String, expectedAssets: Int, activeAuditId: AuditID? = nil) {
        self.country = country
        self.expectedAssets = expectedAssets
        self.activeAuditId = activeAuditId
    }
}

/// A location of a country's inventory, with the assets an audit of it would expect.
public struct LocationCount: Codable, Sendable, Equatable {
    public var location: String
    public var expectedAssets: Int

    public init(location: String, expectedAssets: Int) {
        self.location = location
        self.expectedAssets = expectedAssets
    }
}

/// An audit's completion as every page, report and PDF writes it (and the pages' `fmtCompletion`):
/// one decimal, 100.0% only when nothing is missing and 0.0% only when nothing is scanned, so
/// 99.96 is 99.9% and 0.004 is 0.1%: a count that is not done never reads as done.
public enum Completion {
    public static func text(_ percentage: Double) -> String {
        guard percentage.isFinite, percentage > 0 else { return "0.0%" }
        guard percentage < 100 else { return "100.0%" }
        let tenths = min(999, max(1, Int((percentage * 10 + 1e-9).rounded(.down))))
        return "\(tenths / 10).\(tenths % 10)%"
    }
}
