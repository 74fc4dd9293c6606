import Foundation
import GRDB
import InventoryCore

/// The server's devices: recorded at each login and by `register-push-token`.
public struct SQLiteDeviceStore: DeviceStore {
    let database: AppDatabase

    public init(database: AppDatabase) { self.database = database }

    /// Records a login (or a push-token registration) from `deviceName`.
    public func seen(userID: Int64, deviceName: String, platform: String? = nil, pushToken: String? = nil) async throws {
        let name = try checked { try FreeText.required(deviceName, field: "device_name") }
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO devices (user_id, device_name, platform, push_token, created_at, last_login_at) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (user_id, device_name) DO UPDATE SET last_login_at = excluded.last_login_at,
                        platform = COALESCE(excluded.platform, platform), push_token = COALESCE(excluded.push_token, push_token)
                    """, arguments: [userID, name, platform, pushToken, Date(), Date()])
        }
    }

    /// Devices of one user, or of every user (nil), most recently active first. A device was
    /// last active at its user's last login, scan or report on an audit from it (`audit_stations`);
    /// its waiting scans are the latest count it reported on any audit, whoever was logged in.
    public func list(userID: Int64?) async throws -> [DeviceRecord] {
        try await database.read { db in
            let filter = userID == nil ? "" : " WHERE d.user_id = ?"
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT d.id, d.device_name, d.platform, d.user_id, u.name AS user_name, d.last_login_at,
                        (SELECT count(*) FROM scans s WHERE s.station = d.device_name AND s.user = u.name) AS scans,
                        (SELECT max(recorded_at) FROM scans s WHERE s.station = d.device_name AND s.user = u.name) AS last_scan_at,
                        (SELECT max(last_seen_at) FROM audit_stations t WHERE t.station = d.device_name AND t.user = u.name) AS last_report_at,
                        (SELECT t.waiting FROM audit_stations t WHERE t.station = d.device_name
                            ORDER BY t.last_seen_at DESC LIMIT 1) AS waiting
                    FROM devices d JOIN users u ON u.id = d.user_id\(filter)
                    """, arguments: userID.map { [$0] } ?? [])
            return rows.map { row in
                let login: Date = row["last_login_at"]
                let scan: Date? = row["last_scan_at"]
                let report: Date? = row["last_report_at"]
                return DeviceRecord(
                    id: row["id"], deviceName: row["device_name"], platform: row["platform"], userId: row["user_id"],
                    user: row["user_name"], lastActiveAt: [login, scan ?? login, report ?? login].max() ?? login, scans: row["scans"],
                    waiting: row["waiting"])
            }.sorted { $0.lastActiveAt > $1.lastActiveAt }
        }
    }
}
