import Foundation
import InventoryCore

/// Where a PostgreSQL database is, from a URL as libpq takes it:
/// `postgres://user:password@host:5432/database?sslmode=prefer`, or a Unix socket with
/// `postgres://user@/database?host=/var/run/postgresql`. The password is never printed: the
/// description leaves it out.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    /// How the connection uses TLS, with libpq's names and meanings.
    public enum TLSMode: String, Sendable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, without checking its certificate (libpq's default).
        case prefer
        /// TLS always, without checking the certificate.
        case require
        /// TLS always, with the certificate checked against the system's roots and the host name.
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    /// A Unix socket folder (the `host` query parameter, starting with `/`), instead of TCP.
    public var socketFolder: String?
    public var user: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// How long a connection may take to open, in seconds (libpq's `connect_timeout`; 10 when
    /// absent). A server across a slow link, or one on a machine under heavy load, may need more.
    public var connectTimeout: Int

    /// Parses `text`; a URL that is not a PostgreSQL URL is a validation error naming the option.
    public init(_ text: String) throws {
        func bad(_ why: String) -> InventoryError {
            .invalid(ValidationError(field: "PostgreSQL URL", message: "\(why); expected postgres://USER:PASSWORD@HOST:PORT/DATABASE"))
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme else {
            throw bad("is not a URL")
        }
        guard ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            throw bad("starts with \(scheme)://, not postgres://")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        host = components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "localhost"
        port = components.port ?? Int(query["port"] ?? "") ?? 5432
        guard (1...65535).contains(port) else { throw bad("has the port \(port), not one from 1 to 65535") }
        if let folder = query["host"], folder.hasPrefix("/") { socketFolder = folder }
        user = components.user.flatMap { $0.isEmpty ? nil : $0 } ?? query["user"] ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        password = components.password ?? query["password"]
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? (query["dbname"] ?? user) : path
        if let seconds = query["connect_timeout"] {
            // libpq waits forever for 0; here a connection always has a bound, so 0 is refused.
            guard let value = Int(seconds), (1...3600).contains(value) else {
                throw bad("has connect_timeout=\(seconds), not a whole number of seconds from 1 to 3600")
            }
            connectTimeout = value
        } else {
            connectTimeout = 10
        }
        let mode = query["sslmode"] ?? "prefer"
        switch mode {
        case "disable": tls = .disable
        case "allow", "prefer": tls = .prefer
        case "require", "verify-ca": tls = .require
        case "verify-full": tls = .verifyFull
        default: throw bad("has sslmode=\(mode), not one of disable, prefer, require, verify-full")
        }
    }

    /// The URL with its password left out, for messages and logs.
    public var description: String {
        let place = socketFolder.map { "\($0) (socket)" } ?? "\(host):\(port)"
        return "postgres://\(user)@\(place)/\(database)"
    }
}
