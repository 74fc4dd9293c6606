import Foundation
import GRDB
import InventoryCore

extension ServerBackend {
    /// Every server service over one SQLite file: the single-site default. The signing key
    /// lives beside the file unless given.
    public static func sqlite(_ database: AppDatabase, caseSensitive: Bool = true, defaultStation: String = "server") -> ServerBackend {
        let path = database.writer.path
        let assets = SQLiteAssetService(database: database, caseSensitive: caseSensitive)
        // An import that ended before the search index took its rows (a station's `assets
        // import`, or a server stopped meanwhile): the serving process indexes them now.
        assets.startSearchCatchUp()
        // Likewise the `last_audited_at` times of an audit ended by a process that stopped first.
        let audits = SQLiteAuditService(database: database, caseSensitive: caseSensitive, defaultStation: defaultStation)
        audits.startLastAuditedCatchUp()
        return ServerBackend(
            audits: audits,
            assets: assets,
            accessories: SQLiteAccessoryService(database: database),
            customers: SQLiteCustomerService(database: database),
            users: SQLiteUserStore(database: database),
            devices: SQLiteDeviceStore(database: database),
            plans: SQLiteAuditPlanService(database: database),
            webhooks: SQLiteWebhookService(database: database),
            kind: "sqlite",
            defaultKeyFile: path.hasPrefix(":memory:") || path.isEmpty ? nil : path + ".jwt-key",
            ping: { try await database.read { db in _ = try Int.fetchOne(db, sql: "SELECT 1") } })
    }
}
