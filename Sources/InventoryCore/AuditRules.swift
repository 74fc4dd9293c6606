import Foundation

/// What an audit knows, as the rules need it. The in-memory `AuditEngine` answers from
/// dictionaries; the SQLite store answers from indexed queries inside the scan's transaction.
/// Both feed the same `AuditRules`, so the rules live in one place.
public protocol AuditLookup {
    /// Whether tags and serial numbers match case-sensitively.
    var caseSensitive: Bool { get }
    /// The expected asset whose tag, or else whose serial number, matches; with its first scan
    /// in this audit if it has been scanned.
    func expected(matching identifier: String) throws -> (asset: AssetBrief, firstScan: FirstScan?)?
    /// Any asset of the inventory whose tag, or else whose serial number, matches.
    func knownAsset(matching identifier: String) throws -> AssetBrief?
    /// The first scan of an unexpected entry, if this audit recorded it before.
    func unexpectedFirstScan(key: String) throws -> FirstScan?
}

/// The decision for one scan, before it is stored.
public struct ScanDecision: Sendable, Equatable {
    public var status: ScanStatus
    public var asset: AssetBrief?
    public var reason: UnexpectedReason?
    /// Set when this identifier was scanned before in this audit.
    public var firstScan: FirstScan?
    /// The key of the unexpected entry: one per known asset (its tag and serial are one
    /// entry), otherwise one per distinct identifier.
    public var unexpectedKey: String?

    public init(status: ScanStatus, asset: AssetBrief?, reason: UnexpectedReason?, firstScan: FirstScan?, unexpectedKey: String?) {
        self.status = status
        self.asset = asset
        self.reason = reason
        self.firstScan = firstScan
        self.unexpectedKey = unexpectedKey
    }

    /// This scan adds one to the scanned count.
    public var addsScanned: Bool { status == .foundExpected }
    /// This scan adds one to the unexpected count.
    public var addsUnexpected: Bool { unexpectedKey != nil && firstScan == nil }
}

/// The audit rules of the specification, in one place.
public enum AuditRules {
    /// `locations`: the locations an audit is narrowed to (nil: the whole country), which says
    /// why an asset of the country outside them is unexpected.
    public static func decide(_ identifier: String, country: String, locations: [String]? = nil, lookup: some AuditLookup) throws
        -> ScanDecision
    {
        if let (asset, firstScan) = try lookup.expected(matching: identifier) {
            return ScanDecision(
                status: firstScan == nil ? .foundExpected : .alreadyScanned, asset: asset,
                reason: nil, firstScan: firstScan, unexpectedKey: nil)
        }
        if let asset = try lookup.knownAsset(matching: identifier) {
            let reason: UnexpectedReason
            if asset.country != country {
                reason = .otherCountry
            } else if asset.status == .archived {
                reason = .archived
            } else if asset.status == .disposed {
                reason = .disposed
            } else if let locations, !locations.contains(asset.location ?? "") {
                reason = .otherLocation
            } else {
                reason = .notInExpectedSet
            }
            // An identifier first recorded as unknown and registered since stays one entry.
            let identifierKey = unexpectedKey(identifier: Identifier.matchKey(identifier, caseSensitive: lookup.caseSensitive))
            if let first = try lookup.unexpectedFirstScan(key: identifierKey) {
                return ScanDecision(status: .unexpected, asset: asset, reason: reason, firstScan: first, unexpectedKey: identifierKey)
            }
            let key = unexpectedKey(assetID: asset.id)
            return ScanDecision(
                status: .unexpected, asset: asset, reason: reason,
                firstScan: try lookup.unexpectedFirstScan(key: key), unexpectedKey: key)
        }
        let key = unexpectedKey(identifier: Identifier.matchKey(identifier, caseSensitive: lookup.caseSensitive))
        return ScanDecision(
            status: .unknown, asset: nil, reason: .unknown,
            firstScan: try lookup.unexpectedFirstScan(key: key), unexpectedKey: key)
    }

    public static func unexpectedKey(assetID: Int64) -> String { "asset:\(assetID)" }

    /// An asset found where the station stands, `found`, is misplaced when the station knows
    /// where it stands and the asset is registered elsewhere (or nowhere).
    public static func isMisplaced(registered: String?, found: String?) -> Bool {
        guard let found else { return false }
        return registered != found
    }
    public static func unexpectedKey(identifier: String) -> String { "id:\(identifier)" }

    /// The line a person reads at the kiosk; `location` is where the station stands.
    /// `missingSince`: the audit whose reconciliation marked the asset `MISSING`, when the
    /// asset is recorded as `MISSING` and the store knows the audit.
    public static func message(
        for decision: ScanDecision, identifier: String, auditCountry: String, location: String? = nil, missingSince: AuditID? = nil
    ) -> String {
        let label = decision.asset.map { "\($0.assetTag) (\($0.name))" } ?? "'\(identifier)'"
        var text: String
        switch decision.status {
        case .foundExpected:
            text = "Found \(label)"
            if let asset = decision.asset, isMisplaced(registered: asset.location, found: location) {
                text += ", misplaced: registered at \(asset.location ?? "no location"), found at \(location ?? "")"
            }
        case .alreadyScanned:
            text = "Already scanned: \(label)"
        case .unexpected:
            switch decision.reason {
            case .otherCountry: text = "Unexpected: \(label) is registered in \(decision.asset?.country ?? "?"), not \(auditCountry)"
            case .archived: text = "Unexpected: \(label) is ARCHIVED"
            case .disposed: text = "Unexpected: \(label) is DISPOSED"
            case .otherLocation:
                text = "Unexpected: \(label) is registered at \(decision.asset?.location ?? "no location"), outside this audit's locations"
            default: text = "Unexpected: \(label) was not in the expected set when this audit started"
            }
        case .unknown:
            text = "Unknown: no asset has the tag or serial number '\(identifier)'"
        case .pending:
            text =
                "Pending: '\(identifier)' is not in this station's copy of the expected set; the server decides whether it is unexpected or unknown"
        case .accessoryCounted:
            text = "Counted: '\(identifier)'"
        }
        if decision.asset?.status == .missing, decision.status != .unknown, decision.status != .pending {
            text += missingSince.map { "; it was missing since audit \($0)" } ?? "; it is registered as MISSING"
        }
        if let first = decision.firstScan {
            let verb = decision.status == .alreadyScanned ? "first scanned" : "already recorded"
            text += "; \(verb) by \(first.user) at \(first.station), \(ISOTime.string(first.scannedAt))"
        }
        return text
    }
}
