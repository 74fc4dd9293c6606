import Foundation
import GRDB
import InventoryCore

/// The station's SQLite file. WAL with synchronous=FULL: a transaction that returned has
/// reached the disk, so an acknowledged scan survives a crash or a power cut.
public struct AppDatabase: Sendable {
    public let writer: any DatabaseWriter

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    public init(path: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw InventoryError.storage("cannot create the folder \(directory.path): \(error.localizedDescription)")
        }
        do {
            let pool = try DatabasePool(path: path, configuration: Self.configuration())
            try self.init(writer: pool)
        } catch let error as DatabaseError {
            throw StoreErrors.map(error, context: "cannot open \(path)")
        }
    }

    /// Wraps an open writer (tests may pass an in-memory `DatabaseQueue`) and migrates it.
    public init(writer: any DatabaseWriter) throws {
        self.writer = writer
        // GRDB switches a WAL writer to synchronous=NORMAL when it opens it; a scan must reach
        // the disk at commit, so the writer goes back to FULL here.
        try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        try Schema.migrator.migrate(writer)
    }

    static func configuration() -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return config
    }

    /// Runs one write transaction, turning database failures into `InventoryError`.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.write(body) }
        catch let error as DatabaseError { throw StoreErrors.map(error) }
        catch let error as ValidationError { throw InventoryError.invalid(error) }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.read(body) }
        catch let error as DatabaseError { throw StoreErrors.map(error) }
        catch let error as ValidationError { throw InventoryError.invalid(error) }
    }
}

/// Runs input checks that come before a transaction, reporting their field errors as
/// `InventoryError.invalid` like every other failure of the services.
func checked<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as ValidationError { throw InventoryError.invalid(error) }
}

/// Turns SQLite failures into errors a person can act on.
enum StoreErrors {
    static func map(_ error: DatabaseError, context: String? = nil) -> InventoryError {
        let prefix = context.map { "\($0): " } ?? ""
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .storage("\(prefix)the database is locked by another program; nothing was stored, try again")
        case .SQLITE_FULL:
            return .storage("\(prefix)the disk is full; nothing was stored")
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN:
            return .storage("\(prefix)the database cannot be written (check the file's permissions)")
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return .storage("\(prefix)the file is not a valid AuditStation database")
        case .SQLITE_CONSTRAINT:
            let message = error.message ?? ""
            if message.contains("UNIQUE"), let column = message.split(separator: ".").last {
                return .duplicate(field: String(column), value: "")
            }
            return .storage("\(prefix)a constraint failed: \(message)")
        default:
            return .storage("\(prefix)\(error.message ?? "SQLite error \(error.resultCode.rawValue)")")
        }
    }
}
