import Foundation
import GRDB
import InventoryCore

/// An accessory's tag is unique among assets' tags and serials and accessories' tags, so a
/// scan names one thing. The schema keeps accessories' tags unique; these checks cover the
/// other table, exactly (an accessory's tag is matched as it is written).
enum AccessoryTags {
    static func checkUnique(_ db: Database, _ tag: String?, except id: Int64?) throws {
        guard let tag else { return }
        if try Int64.fetchOne(db, sql: "SELECT id FROM accessories WHERE tag = ? AND id IS NOT ?", arguments: [tag, id]) != nil {
            throw InventoryError.duplicate(field: "tag", value: tag)
        }
        if try Int64.fetchOne(db, sql: "SELECT id FROM assets WHERE asset_tag = ?1 OR serial_num = ?1 LIMIT 1", arguments: [tag]) != nil {
            throw InventoryError.duplicate(field: "tag", value: tag)
        }
    }

    /// An asset's tag or serial may not be an accessory's tag.
    static func checkAsset(_ db: Database, _ asset: Asset) throws {
        if try Int64.fetchOne(db, sql: "SELECT id FROM accessories WHERE tag = ?", arguments: [asset.assetTag]) != nil {
            throw InventoryError.duplicate(field: "asset_tag", value: asset.assetTag)
        }
        if let serial = asset.serialNum, try Int64.fetchOne(db, sql: "SELECT id FROM accessories WHERE tag = ?", arguments: [serial]) != nil {
            throw InventoryError.duplicate(field: "serial_num", value: serial)
        }
    }
}
