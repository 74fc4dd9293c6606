import AuditAPI
import Foundation
import InventoryCore

/// A station's login to a server, kept in a file only the user can read (mode 0600) next to
/// the station's database: `<database>.login.json`.
public struct StationLogin: Codable, Sendable, Equatable {
    public var server: String
    public var token: String
    /// When the token runs out, if the server said (seed 000's backend does not).
    public var expiresAt: Date?
    public var user: UserInfo
    public var deviceName: String
    public var apiKey: String?

    public init(server: String, token: String, expiresAt: Date?, user: UserInfo, deviceName: String, apiKey: String?) {
        self.server = server
        self.token = token
        self.expiresAt = expiresAt
        self.user = user
        self.deviceName = deviceName
        self.apiKey = apiKey
    }

    public static func path(forDatabase databasePath: String) -> String { databasePath + ".login.json" }

    /// The saved login, or nil when the station is standalone.
    public static func load(databasePath: String) throws -> StationLogin? {
        let path = path(forDatabase: databasePath)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try JSONDecoder.auditStation().decode(StationLogin.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw InventoryError.unauthorized("The login file \(path) cannot be read (\(error.localizedDescription)); log in again or delete it")
        }
    }

    /// Writes the file with mode 0600 from the start: the token is never readable by others.
    public func save(databasePath: String) throws {
        let path = Self.path(forDatabase: databasePath)
        let data = try JSONEncoder.auditStation(pretty: true).encode(self)
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw InventoryError.storage("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == data.count, fchmod(fd, 0o600) == 0, fsync(fd) == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw InventoryError.storage("cannot write \(path): \(reason)")
        }
    }

    /// Removes the saved login; the station is standalone again.
    public static func remove(databasePath: String) throws {
        let path = path(forDatabase: databasePath)
        if unlink(path) != 0 && errno != ENOENT {
            throw InventoryError.storage("cannot remove \(path): \(String(cString: strerror(errno)))")
        }
    }
}
