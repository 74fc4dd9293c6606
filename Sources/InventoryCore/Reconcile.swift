import Foundation

/// What reconciling an ended audit may do to the inventory. Each is chosen on its own.
public enum ReconcileAction: String, Codable, Sendable, CaseIterable, Comparable {
    /// Each misplaced asset's location becomes the location it was found at.
    case moveMisplaced = "move_misplaced"
    /// Each missing asset's status becomes `MISSING` (its earlier status is kept in its history).
    case markMissing = "mark_missing"
    /// Each unknown tag becomes a new asset of the audit's country, at the location it was found.
    case registerUnknown = "register_unknown"
    /// Each `MISSING` asset this audit found gets back the status it had before it was marked.
    case restoreFound = "restore_found"
    /// Each accessory the audit expects gets the total quantity that was counted, plus what
    /// customers hold now (each change one entry of the accessory's history).
    case setQuantities = "set_quantities"

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }

    /// What the CLI's flag is called (`--move-misplaced`).
    public var flag: String { "--" + rawValue.replacingOccurrences(of: "_", with: "-") }
}

/// A request to reconcile an ended audit: a preview (nothing changes), or the chosen actions
/// applied in one transaction.
public struct ReconcileRequest: Codable, Sendable, Equatable {
    public var auditId: AuditID
    /// The actions to apply, or to preview. A preview of none previews every action; applying
    /// none is refused (`ReconcileRequest.checked`).
    public var actions: Set<ReconcileAction>
    public var preview: Bool
    /// Who reconciles; a server fills it from the token.
    public var user: String?
    /// The countries whose assets the caller may change (nil: every country). A server fills it
    /// from the token; an asset of another country is left as it is and listed as skipped.
    public var countries: [String]?

    public init(auditId: AuditID, actions: Set<ReconcileAction>, preview: Bool, user: String? = nil, countries: [String]? = nil) {
        self.auditId = auditId
        self.actions = actions
        self.preview = preview
        self.user = user
        self.countries = countries
    }

    /// The actions a store runs: every action for a preview that names none. Applying none is
    /// a validation error, before anything is read or written.
    public func checkedActions() throws -> Set<ReconcileAction> {
        if !actions.isEmpty { return actions }
        if preview { return Set(ReconcileAction.allCases) }
        throw InventoryError.invalid(
            ValidationError(
                field: "actions",
                message:
                    "choose at least one of \(ReconcileAction.allCases.map(\.rawValue).joined(separator: ", ")) (or preview, which changes nothing)"
            ))
    }

    /// The user's name as stored in the history: checked like every free text.
    public func checkedUser() throws -> String {
        do { return try user.flatMap { try FreeText.normalize($0, field: "user") } ?? "unknown" } catch let error as ValidationError {
            throw InventoryError.invalid(error)
        }
    }
}

/// One change to one asset: a field from one value to another. A registration's `assetId` is
/// nil in a preview (the asset does not exist yet) and its field is `asset_tag`, from nothing.
public struct ReconcileChange: Codable, Sendable, Equatable {
    public var assetId: Int64?
    public var assetTag: String
    public var action: ReconcileAction
    public var field: String
    public var from: String?
    public var to: String?
    /// For `set_quantities`: the accessory changed (`assetTag` is then its tag, `assetId` nil).
    public var accessoryId: Int64?

    public init(
        assetId: Int64?, assetTag: String, action: ReconcileAction, field: String, from: String?, to: String?, accessoryId: Int64? = nil
    ) {
        self.accessoryId = accessoryId
        self.assetId = assetId
        self.assetTag = assetTag
        self.action = action
        self.field = field
        self.from = from
        self.to = to
    }
}

/// An asset a reconciliation would have changed but left alone, because the caller may not
/// change the assets of its country. Only the tag is told (the caller may not read the rest).
public struct ReconcileSkip: Codable, Sendable, Equatable {
    public static let otherCountry = "other_country"
    public var assetTag: String
    public var action: ReconcileAction
    public var reason: String

    public init(assetTag: String, action: ReconcileAction, reason: String = Self.otherCountry) {
        self.assetTag = assetTag
        self.action = action
        self.reason = reason
    }
}

/// The answer to a reconciliation: what changed (or would change, for a preview). The list
/// holds at most `changeLimit` changes, in action then asset order; `counts` and `total`
/// count them all. `skipped` lists (at most `changeLimit` of) the assets left alone because
/// the caller may not change their country, `skippedTotal` counts them all.
public struct ReconcileResult: Codable, Sendable, Equatable {
    public static let changeLimit = 1000
    public var auditId: AuditID
    public var preview: Bool
    public var actions: [ReconcileAction]
    /// Changes per action, for every action run (0 included; absent for an action not run).
    public var counts: ReconcileCounts
    public var total: Int
    public var changes: [ReconcileChange]
    /// More changes were made than `changes` lists.
    public var truncated: Bool
    public var skipped: [ReconcileSkip]?
    public var skippedTotal: Int?
    public var message: String

    public init(
        auditId: AuditID, preview: Bool, actions: Set<ReconcileAction>, counts: [ReconcileAction: Int], changes: [ReconcileChange],
        skipped: [ReconcileSkip] = []
    ) {
        self.auditId = auditId
        self.preview = preview
        self.actions = actions.sorted()
        var named = ReconcileCounts()
        for action in actions { named[action] = counts[action] ?? 0 }
        self.counts = named
        total = actions.reduce(0) { $0 + (named[$1] ?? 0) }
        self.changes = Array(changes.prefix(Self.changeLimit))
        truncated = total > self.changes.count
        let what = self.actions.map { "\(named[$0] ?? 0) \($0.rawValue.replacingOccurrences(of: "_", with: " "))" }.joined(separator: ", ")
        let counted = total == 1 ? "1 change" : "\(total) changes"
        if total == 0 {
            message = "Audit \(auditId): nothing to change\(preview ? "" : "; nothing was changed") (\(what))"
        } else if preview {
            message = "Audit \(auditId): would make \(counted) (\(what)); nothing was changed"
        } else {
            message = "Audit \(auditId): made \(counted) (\(what))"
        }
        self.skipped = Array(skipped.prefix(Self.changeLimit))
        skippedTotal = skipped.count
        if !skipped.isEmpty {
            message += "; \(skipped.count) left alone: asset\(skipped.count == 1 ? "" : "s") of a country you may not change"
        }
    }
}

/// A reconciliation's changes per action.
public struct ReconcileCounts: Codable, Sendable, Equatable {
    public var moveMisplaced: Int?
    public var markMissing: Int?
    public var registerUnknown: Int?
    public var restoreFound: Int?
    public var setQuantities: Int?

    public init() {}

    public subscript(action: ReconcileAction) -> Int? {
        get {
            switch action {
            case .moveMisplaced: moveMisplaced
            case .markMissing: markMissing
            case .registerUnknown: registerUnknown
            case .restoreFound: restoreFound
            case .setQuantities: setQuantities
            }
        }
        set {
            switch action {
            case .moveMisplaced: moveMisplaced = newValue
            case .markMissing: markMissing = newValue
            case .registerUnknown: registerUnknown = newValue
            case .restoreFound: restoreFound = newValue
            case .setQuantities: setQuantities = newValue
            }
        }
    }
}

/// One entry of an asset's history: one field changed, when, by whom, and by what (`kind`:
/// a reconciliation action such as `mark_missing`, or `edit`, `transfer`), naming the audit
/// when an audit's reconciliation made it.
public struct AssetHistoryEntry: Codable, Sendable, Equatable {
    public var id: Int64
    public var assetId: Int64
    public var at: Date
    public var field: String
    public var from: String?
    public var to: String?
    public var auditId: AuditID?
    public var user: String
    public var kind: String

    public init(id: Int64, assetId: Int64, at: Date, field: String, from: String?, to: String?, auditId: AuditID?, user: String, kind: String) {
        self.id = id
        self.assetId = assetId
        self.at = at
        self.field = field
        self.from = from
        self.to = to
        self.auditId = auditId
        self.user = user
        self.kind = kind
    }

    /// The kinds of entry that are not reconciliation actions.
    public static let editKind = "edit"
    public static let transferKind = "transfer"

    /// The fields an ordinary edit records when they change, with their values as text.
    public static func editedFields(_ before: Asset, _ after: Asset) -> [(field: String, from: String?, to: String?)] {
        let pairs: [(String, String?, String?)] = [
            ("asset_tag", before.assetTag, after.assetTag), ("serial_num", before.serialNum, after.serialNum), ("name", before.name, after.name),
            ("model", before.model, after.model), ("status", before.status.rawValue, after.status.rawValue),
            ("condition", before.condition?.rawValue, after.condition?.rawValue), ("manufacturer", before.manufacturer, after.manufacturer),
            ("asset_type", before.assetType, after.assetType), ("country", before.country, after.country),
            ("location", before.location, after.location), ("company", before.company, after.company),
            ("customer_id", before.customerId.map(String.init), after.customerId.map(String.init))
        ]
        return pairs.filter { $0.1 != $0.2 }.map { (field: $0.0, from: $0.1, to: $0.2) }
    }
}

/// How reconciliation describes a registration and the new asset it makes.
public enum Registration {
    /// The new asset's name: the tag, until someone names it.
    public static func name(tag: String) -> String { tag }
    public static func notes(auditID: AuditID) -> String { "Registered by reconciling audit \(auditID), which scanned this unknown tag" }
    /// The status a registered asset gets, and the one a restore falls back to when the
    /// history does not say what the asset was before it was marked missing.
    public static let status = AssetStatus.inStock
}

/// SQL that both stores share for reconciling.
public enum ReconcileSQL {
    /// True when no audit started after `audit` found `asset`, as expected or as someone
    /// else's: an older audit reconciled after a newer one never marks missing what the newer
    /// one saw. (Portable SQL: SQLite and PostgreSQL run it alike.)
    public static func notFoundByALaterAudit(asset: String, audit: String) -> String {
        let later = "later.started_at > (SELECT started_at FROM audits WHERE id = \(audit))"
        return """
            NOT EXISTS (SELECT 1 FROM audits later JOIN audit_expected le ON le.audit_id = later.id AND le.asset_id = \(asset)
                WHERE \(later) AND le.first_scan_id IS NOT NULL)
            AND NOT EXISTS (SELECT 1 FROM audits later JOIN audit_unexpected lu ON lu.audit_id = later.id
                WHERE \(later) AND lu.asset_id = \(asset))
            """
    }
}
