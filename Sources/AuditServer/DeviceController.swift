import AuditAPI
import Foundation
import Hummingbird
import InventoryCore

/// `GET /api/v1/devices` and `POST /api/v1/devices/register-push-token` (seed 000).
struct DeviceController {
    let devices: any DeviceStore

    func addRoutes(to routes: RouteTable, on router: some RouterMethods<AuditRequestContext>) {
        routes.add(.get, Routes.devices, on: router) { _, context, user in
            // An admin sees every user's devices; anyone else sees their own.
            let list = try await devices.list(userID: user.userType == .admin ? nil : user.id)
            return try Response.envelope(DevicesResponse(devices: list.map(DeviceRow.init)))
        }
        routes.add(.post, Routes.devicePushToken, on: router) { request, context, user in
            var request = request
            let body = try await request.decodeJSON(PushTokenRequest.self)
            var errors = ValidationError()
            if body.token.isEmpty || body.token.utf8.count > 4096 { errors.add("token", "must be 1 to 4096 bytes") }
            if let platform = body.platform, !["ios", "android", "web", "linux"].contains(platform.lowercased()) {
                errors.add("platform", "'\(platform.prefix(20))' is not ios, android, web or linux")
            }
            guard errors.isEmpty else { throw InventoryError.invalid(errors) }
            try await devices.seen(userID: user.id, deviceName: body.deviceName, platform: body.platform?.lowercased(), pushToken: body.token)
            return try Response.envelope(Empty(), message: "Device registered")
        }
    }
}

struct DevicesResponse: Encodable, Sendable { var devices: [DeviceRow] }

/// A device as `GET /api/v1/devices` sends it: the stored record, and `last_seen_at`, the name
/// the back office and the spec's clients read for the device's last activity (its user's last
/// login, scan, or report on an audit from it). `last_active_at` stays for the clients that read it.
struct DeviceRow: Encodable, Sendable {
    var record: DeviceRecord

    init(_ record: DeviceRecord) { self.record = record }

    enum Keys: String, CodingKey { case lastSeenAt }

    func encode(to encoder: any Encoder) throws {
        try record.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(record.lastActiveAt, forKey: .lastSeenAt)
    }
}

struct PushTokenRequest: Decodable, Sendable {
    var token: String
    var platform: String?
    var deviceName: String
}
