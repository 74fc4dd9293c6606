import Foundation
import InventoryCore
import PostgresNIO

/// The server's devices in PostgreSQL: recorded at each login and by `register-push-token`.
public struct PostgresDeviceStore: DeviceStore {
    let database: PostgresDatabase

    public init(database: PostgresDatabase) { self.database = database }

    public func seen(userID: Int64, deviceName: String, platform: String? = nil, pushToken: String? = nil) async throws {
        let name = try checked { try FreeText.required(deviceName, field: "device_name") }
        let now = Date()
        try await database.read { c in
            try await c.run(
                """
                INSERT INTO devices (user_id, device_name, platform, push_token, created_at, last_login_at)
                VALUES (\(userID), \(name), \(platform), \(pushToken), \(now), \(now))
                ON CONFLICT (user_id, device_name) DO UPDATE SET last_login_at = excluded.last_login_at,
                    platform = COALESCE(excluded.platform, devices.platform), push_token = COALESCE(excluded.push_token, devices.push_token)
                """)
        }
    }

    /// Devices of one user, or of every user (nil), most recently active first. A device was
    /// last active at its user's last login, scan or report on an audit from it (`audit_stations`);
    /// its waiting scans are the latest count it reported on any audit, whoever was logged in.
    public func list(userID: Int64?) async throws -> [DeviceRecord] {
        try await database.read { c in
            var binds = Binds()
            let filter = userID.map { " WHERE d.user_id = \(binds.add($0))" } ?? ""
            let rows = try await c.rows(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT d.id, d.device_name, d.platform, d.user_id, u.name AS user_name, d.last_login_at,
                            (SELECT count(*) FROM scans s WHERE s.station = d.device_name AND s.user_name = u.name) AS scans,
                            (SELECT max(recorded_at) FROM scans s WHERE s.station = d.device_name AND s.user_name = u.name) AS last_scan_at,
                            (SELECT max(last_seen_at) FROM audit_stations t WHERE t.station = d.device_name AND t.user_name = u.name)
                                AS last_report_at,
                            (SELECT t.waiting FROM audit_stations t WHERE t.station = d.device_name
                                ORDER BY t.last_seen_at DESC LIMIT 1) AS waiting
                        FROM devices d JOIN users u ON u.id = d.user_id\(filter)
                        """, binds: binds.bindings))
            return try rows.map { row in
                let login: Date = try row.get("last_login_at")
                let scan = try row.get("last_scan_at", as: Date?.self)
                let report = try row.get("last_report_at", as: Date?.self)
                return DeviceRecord(
                    id: try row.get("id"), deviceName: try row.get("device_name"), platform: try row.get("platform"),
                    userId: try row.get("user_id"), user: try row.get("user_name"),
                    lastActiveAt: [login, scan ?? login, report ?? login].max() ?? login, scans: try row.get("scans"),
                    waiting: try row.get("waiting", as: Int?.self))
            }.sorted { $0.lastActiveAt > $1.lastActiveAt }
        }
    }
}
