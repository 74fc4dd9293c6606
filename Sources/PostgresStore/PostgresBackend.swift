import Foundation
import InventoryCore

extension ServerBackend {
    /// Every server service over one PostgreSQL database, which several server processes may
    /// share. There is no database file to keep a signing key beside, so the key must be given
    /// (a key file or AUDIT_STATION_JWT_SECRET), the same for every server on the database.
    public static func postgres(_ database: PostgresDatabase, caseSensitive: Bool = true, defaultStation: String = "server") -> ServerBackend {
        // The `last_audited_at` times of an audit ended by a process that stopped first.
        let audits = PostgresAuditService(database: database, caseSensitive: caseSensitive, defaultStation: defaultStation)
        audits.startLastAuditedCatchUp()
        return ServerBackend(
            audits: audits,
            assets: PostgresAssetService(database: database, caseSensitive: caseSensitive),
            accessories: PostgresAccessoryService(database: database),
            customers: PostgresCustomerService(database: database),
            users: PostgresUserStore(database: database),
            devices: PostgresDeviceStore(database: database),
            plans: PostgresAuditPlanService(database: database),
            webhooks: PostgresWebhookService(database: database),
            kind: "postgresql",
            defaultKeyFile: nil,
            ping: { try await database.ping() })
    }
}
