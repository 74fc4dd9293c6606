import Foundation
import InventoryCore
import PostgresNIO

/// An accessory's tag is unique among assets' tags and serials and accessories' tags, as on
/// SQLite (`AccessoryTags` there).
enum PGAccessoryTags {
    static func checkUnique(_ c: PostgresConnection, _ tag: String?, except id: Int64?) async throws {
        guard let tag else { return }
        if try await c.row("SELECT id FROM accessories WHERE tag = \(tag) AND id IS DISTINCT FROM \(id)") != nil {
            throw InventoryError.duplicate(field: "tag", value: tag)
        }
        if try await c.row("SELECT id FROM assets WHERE asset_tag = \(tag) OR serial_num = \(tag) LIMIT 1") != nil {
            throw InventoryError.duplicate(field: "tag", value: tag)
        }
    }

    static func checkAsset(_ c: PostgresConnection, _ asset: Asset) async throws {
        if try await c.row("SELECT id FROM accessories WHERE tag = \(asset.assetTag)") != nil {
            throw InventoryError.duplicate(field: "asset_tag", value: asset.assetTag)
        }
        if let serial = asset.serialNum, try await c.row("SELECT id FROM accessories WHERE tag = \(serial)") != nil {
            throw InventoryError.duplicate(field: "serial_num", value: serial)
        }
    }
}
