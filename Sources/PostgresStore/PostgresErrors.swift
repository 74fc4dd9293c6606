import Foundation
import InventoryCore
import PostgresNIO

/// Turns PostgreSQL and connection failures into errors a person can act on. PSQLError's own
/// description says nothing (on purpose), so the server's SQLSTATE and message are read here.
enum PostgresErrors {
    static func map(_ error: any Error) -> InventoryError {
        // postgres-nio's `withTransaction` wraps what failed (the body, else COMMIT, else
        // BEGIN; a failed ROLLBACK after the body's error is not news): that is the error.
        if let error = error as? PostgresTransactionError, let cause = error.closureError ?? error.commitError ?? error.beginError {
            return map(cause)
        }
        if let error = InventoryError(error) { return error }
        guard let error = error as? PSQLError else {
            if error is CancellationError { return .unavailable("the request was cancelled") }
            return .storage("\(error)")
        }
        guard error.code == .server else {
            return .storage("the PostgreSQL connection failed (\(error.code)); nothing was stored, try again")
        }
        let state = error.serverInfo?[.sqlState] ?? ""
        let message = error.serverInfo?[.message] ?? "PostgreSQL error \(state)"
        switch state {
        case "23505":
            let (field, value) = uniqueKey(error.serverInfo?[.detail] ?? "")
            return .duplicate(field: field, value: value)
        case "40001", "40P01", "55P03":
            return .storage("the database was busy with a conflicting change; nothing was stored, try again")
        case "22021", "22P05", "54000":
            // A NUL character (or other text PostgreSQL cannot store) in a value that was not
            // checked first, such as an id in a path: the request's fault, not the server's.
            return .invalid(ValidationError(field: "input", message: "contains text PostgreSQL cannot store (\(message))"))
        case "53100":
            return .storage("the database's disk is full; nothing was stored")
        case "57P01", "57P02", "57P03":
            return .storage("the database is shutting down or starting; nothing was stored, try again")
        default:
            return .storage(message)
        }
    }

    /// The column and value of a unique violation's detail, `Key (asset_tag)=(A-1) already exists.`;
    /// an expression index names the column inside a function call.
    static func uniqueKey(_ detail: String) -> (String, String) {
        guard let open = detail.range(of: "Key ("), let middle = detail.range(of: ")=(", range: open.upperBound..<detail.endIndex) else {
            return ("value", "")
        }
        var field = String(detail[open.upperBound..<middle.lowerBound])
        if let inner = field.range(of: "("), let close = field.range(of: ")", range: inner.upperBound..<field.endIndex) {
            field = String(field[inner.upperBound..<close.lowerBound])
        }
        let rest = detail[middle.upperBound...]
        let value = rest.range(of: ") already exists").map { String(rest[..<$0.lowerBound]) } ?? ""
        return (field, value)
    }

    /// A failure to connect, as one line that names the server (without the password) and says
    /// what to check.
    static func connection(_ error: any Error, url: PostgresURL) -> InventoryError {
        let place = "PostgreSQL at \(url)"
        guard let error = error as? PSQLError else {
            if let error = error as? InventoryError { return error }
            return .unavailable("cannot connect to \(place): \(error.localizedDescription)")
        }
        if error.code == .server {
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = error.serverInfo?[.message] ?? ""
            switch state {
            case "28P01", "28000": return .unavailable("cannot log in to \(place): wrong user name or password (\(message))")
            case "3D000": return .unavailable("cannot connect to \(place): the database \(url.database) does not exist (create it with `createdb`)")
            default: return .unavailable("cannot connect to \(place): \(message)")
            }
        }
        switch error.code {
        case .authMechanismRequiresPassword:
            return .unavailable("cannot log in to \(place): the server asks for a password; put it in the URL")
        case .sslUnsupported:
            return .unavailable("cannot connect to \(place): the server does not offer TLS; use sslmode=disable or prefer")
        default:
            let cause = error.underlying.map { describe($0) } ?? "\(error.code)"
            return .unavailable("cannot connect to \(place): \(cause)")
        }
    }

    /// A short text for a NIO connect or TLS error ("connection refused").
    static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        if text.contains("refused") || text.contains("ECONNREFUSED") { return "connection refused (is the server running, on this port?)" }
        if text.contains("timeout") || text.contains("Timeout") { return "no answer in time (connect_timeout, 10 s unless the URL says)" }
        if text.contains("resolve") || text.contains("NXDOMAIN") || text.contains("ResolverError") { return "the host name cannot be resolved" }
        return text
    }
}
