import AuditAPI
import InventoryCore

/// Who may do what. ADMIN may do everything. Asset and accessory changes need
/// `can_edit_assets`; CLIENT users may not change customers or run audits; audits are limited
/// to the user's countries (none listed means every country).
extension UserInfo {
    func requireAssetEditing() throws {
        guard userType == .admin || canEditAssets else {
            throw InventoryError.forbidden("changing assets and accessories needs the can_edit_assets permission")
        }
    }

    func requireCustomerEditing() throws {
        guard userType != .client else { throw InventoryError.forbidden("CLIENT users may not change customers") }
    }

    /// Starting, scanning into and ending an audit of `country`.
    func requireAuditing(_ country: String) throws {
        guard userType != .client else { throw InventoryError.forbidden("CLIENT users may not run audits") }
        try requireViewing(country)
    }

    /// The countries whose audits the user may see; nil for every country.
    var auditableCountries: Set<String>? {
        userType == .admin || countries.isEmpty ? nil : Set(countries)
    }

    /// Whether the user sees the assets of `country`: the countries they may audit (every
    /// country for ADMIN, or when none are listed), as for audits.
    func maySeeAssets(of country: String) -> Bool { mayAudit(country) }

    /// Seeing, or changing, the assets of `country`.
    func requireAssetCountry(_ country: String) throws {
        guard maySeeAssets(of: country) else { throw InventoryError.forbidden("you may not see or change the assets of \(country)") }
    }

    /// Reading an audit of `country`.
    func requireViewing(_ country: String) throws {
        guard mayAudit(country) else { throw InventoryError.forbidden("you may not audit \(country)") }
    }
}
