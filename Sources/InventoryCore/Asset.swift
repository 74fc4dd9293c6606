import Foundation
import ModelMacros

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

/// An asset with every field of the v2 inventory API.
@MemberwiseInit
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
}

/// The fields a create or an edit sends. Absent fields are left as they are on an edit; an
/// empty string clears an optional text field.
@MemberwiseInit
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
}
