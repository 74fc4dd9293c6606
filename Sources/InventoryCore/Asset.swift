import Foundation

public enum AssetStatus: String, Codable, Sendable, CaseIterable {
    case inStock = "IN_STOCK", deployed = "DEPLOYED", readyToDeploy = "READY_TO_DEPLOY"
    case repair = "REPAIR", archived = "ARCHIVED", disposed = "DISPOSED"
    /// Not found by an audit, and so marked by its reconciliation (an extra status, beyond
    /// seed 001's). A later audit that finds it says so, and its reconciliation restores the
    /// status the asset had before.
    case missing = "MISSING"

    /// ARCHIVED and DISPOSED assets are never part of an audit's expected set.
    public var isRetired: Bool { self == .archived || self == .disposed }
}

public enum AssetCondition: String, Codable, Sendable, CaseIterable {
    case new = "NEW", good = "GOOD", fair = "FAIR", poor = "POOR"
}

/// An asset with every field of the v2 inventory API. Built as `Customer` is: by its
/// memberwise initializer here, and from a store's row.
public struct Asset: Codable, Sendable, Equatable, Identifiable {
    public var id: Int64 = 0
    public var assetTag: String
    public var serialNum: String?
    public var name: String
    public var model: String?
    public var status: AssetStatus = .inStock
    public var condition: AssetCondition?
    public var manufacturer: String?
    public var assetType: String?
    public var cpuType: String?
    public var cpuCores: String?
    public var memory: String?
    public var harddrive: String?
    public var country: String
    public var location: String?
    public var company: String?
    public var customerId: Int64?
    /// The name of the customer the asset is assigned to (read-only; set through transfer).
    public var customer: String?
    public var notes: String?
    public var techNotes: String?
    public var isErased: Bool = false
    public var hasKeyboard: Bool = false
    public var hasCharger: Bool = false
    public var createdAt: Date = Date()
    public var updatedAt: Date = Date()
    /// When an ended audit last found it: the time of its last found scan in that audit (read-only;
    /// set by the end of an audit, and by a late scan of an ended one). Nil if none has.
    public var lastAuditedAt: Date?
}

extension Asset {
    /// Takes `pending`, the time of a find an ended audit's catch-up has not written to the asset
    /// yet (both stores read it beside the row), when it is later than `lastAuditedAt`.
    public mutating func takeAudited(pending: Date?) {
        guard let pending else { return }
        lastAuditedAt = max(lastAuditedAt ?? pending, pending)
    }
}

/// The fields a create or an edit sends. Absent fields are left as they are on an edit; an
/// empty string clears an optional text field.
public struct AssetInput: Codable, Sendable, Equatable {
    public var assetTag: String?
    public var serialNum: String?
    public var name: String?
    public var model: String?
    public var status: String?
    public var condition: String?
    public var manufacturer: String?
    public var assetType: String?
    public var cpuType: String?
    public var cpuCores: String?
    public var memory: String?
    public var harddrive: String?
    public var country: String?
    public var location: String?
    public var company: String?
    public var customerId: Int64?
    public var notes: String?
    public var techNotes: String?
    public var isErased: Bool?
    public var hasKeyboard: Bool?
    public var hasCharger: Bool?

    public init(
        assetTag: String? = nil, serialNum: String? = nil, name: String? = nil, model: String? = nil, status: String? = nil, condition: String? = nil,
        manufacturer: String? = nil, assetType: String? = nil, cpuType: String? = nil, cpuCores: String? = nil, memory: String? = nil,
        harddrive: String? = nil, country: String? = nil, location: String? = nil, company: String? = nil, customerId: Int64? = nil,
        notes: String? = nil, techNotes: String? = nil, isErased: Bool? = nil, hasKeyboard: Bool? = nil, hasCharger: Bool? = nil
    ) {
        self.assetTag = assetTag
        self.serialNum = serialNum
        self.name = name
        self.model = model
        self.status = status
        self.condition = condition
        self.manufacturer = manufacturer
        self.assetType = assetType
        self.cpuType = cpuType
        self.cpuCores = cpuCores
        self.memory = memory
        self.harddrive = harddrive
        self.country = country
        self.location = location
        self.company = company
        self.customerId = customerId
        self.notes = notes
        self.techNotes = techNotes
        self.isErased = isErased
        self.hasKeyboard = hasKeyboard
        self.hasCharger = hasCharger
    }
}
