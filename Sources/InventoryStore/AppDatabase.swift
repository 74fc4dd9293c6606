import CSQLiteSupport
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
        Self.restrictPermissions(path)
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

    /// The file holds password hashes and login tokens, so it is created readable by its owner
    /// only (0600); SQLite gives its -wal and -shm files the same mode. A file that others may
    /// read loses those permissions (0640 at most). A file that cannot be opened is left for
    /// SQLite to report.
    static func restrictPermissions(_ path: String) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
        for file in [path, path + "-wal", path + "-shm"] {
            var info = stat()
            guard stat(file, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o037 != 0 else { continue }
            _ = chmod(file, info.st_mode & 0o740)
        }
    }

    /// SQLite's process-wide settings, for a program to make at its start, before it opens any
    /// database (later they are refused, and SQLite keeps its defaults): SQLite stops counting
    /// its memory use, which took its global memory mutex at every allocation and free, about 4%
    /// of an import's time (nothing here reads the counts). Whether the settings took effect.
    @discardableResult
    public static func prepareProcess() -> Bool { csqlite_stop_memory_statistics() == 0 }

    static func configuration() -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return config
    }

    /// Runs one write transaction, turning database failures into `InventoryError`.
    package func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.write(body) } catch let error as DatabaseError { throw StoreErrors.map(error) } catch let error
            as ValidationError
        { throw InventoryError.invalid(error) }
    }

    /// Runs `body` on the writer outside a transaction (a connection's settings), turning
    /// database failures into `InventoryError`.
    package func writeOutsideTransaction<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.writeWithoutTransaction(body) } catch let error as DatabaseError { throw StoreErrors.map(error) }
    }

    /// Copies the pages the WAL holds into the database file now, waiting for no reader or
    /// writer (a passive checkpoint). A command that wrote much and ends next, such as an
    /// import, calls it, so that the next process to write does not do it in its place.
    public func checkpoint() async throws {
        try await writeOutsideTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
    }

    /// Runs a one-off command's large write (`assets import` on a station) with a rollback
    /// journal instead of the WAL, when no other connection has the file open, and leaves the
    /// file in WAL mode again after, whether `body` returns or throws. Whether it ran alone.
    ///
    /// In WAL mode every page of a million-row import is written twice: into the WAL before
    /// the commit, then into the file by the checkpoint (about 0.6 s each for 300 MB). A
    /// rollback journal keeps only the pages that existed before the transaction, and pages
    /// added beyond the file's old end need none, so the import's pages go into the file once.
    /// Durability is the same: with synchronous=FULL the commit syncs the journal and the file.
    /// A crash mid-import leaves a hot journal, which the next connection rolls back before it
    /// reads (nothing of the import stays), then it turns the file back to WAL.
    ///
    /// Another process that has the file open (a kiosk, a server) keeps it in WAL mode: the
    /// switch is refused at once, `body` runs in WAL mode as any write does, and the WAL is
    /// checkpointed after it. A process that opens the file during the import waits for the
    /// import's end, up to its busy timeout (10 s), and then reads the imported rows (measured: an
    /// `assets list` started 1.5 s into a 1,000,000-row import answered after 7.7 s with them);
    /// an import longer than that makes it fail to open the file ("database is locked") rather
    /// than read the inventory from before the import.
    public func writingAlone<T: Sendable>(_ body: () async throws -> T) async throws -> (T, alone: Bool) {
        let alone = try await switchJournal(to: "truncate")
        let result: T
        do {
            result = try await body()
        } catch {
            if alone { _ = try? await switchJournal(to: "wal") }
            throw error
        }
        if alone {
            guard try await switchJournal(to: "wal") else {
                throw InventoryError.storage("the import is stored, but the database file could not go back to WAL mode")
            }
        } else {
            try await checkpoint()
        }
        return (result, alone)
    }

    /// Asks SQLite for `mode` without waiting for other connections; whether the file is in it.
    private func switchJournal(to mode: String) async throws -> Bool {
        // The pool's idle readers would hold the file open in WAL mode.
        (writer as? DatabasePool)?.releaseMemory()
        return try await writeOutsideTransaction { db in
            let timeout = try Int.fetchOne(db, sql: "PRAGMA busy_timeout") ?? 0
            try db.execute(sql: "PRAGMA busy_timeout = 0")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = \(timeout)") }
            do {
                return try String.fetchOne(db, sql: "PRAGMA journal_mode = \(mode)")?.lowercased() == mode
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                return false
            }
        }
    }

    /// Runs `body` in a write transaction that is always rolled back: what it would change,
    /// seen from inside, with nothing kept (a preview).
    package func rolledBack<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.writeWithoutTransaction { db in
                var answer: T?
                try db.inTransaction {
                    answer = try body(db)
                    return .rollback
                }
                guard let answer else { throw InventoryError.storage("the preview gave no answer") }
                return answer
            }
        } catch let error as DatabaseError { throw StoreErrors.map(error) } catch let error as ValidationError { throw InventoryError.invalid(error) }
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await writer.read(body) } catch let error as DatabaseError { throw StoreErrors.map(error) } catch let error as ValidationError
        { throw InventoryError.invalid(error) }
    }
}

/// Runs input checks that come before a transaction, reporting their field errors as
/// `InventoryError.invalid` like every other failure of the services.
func checked<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as ValidationError { throw InventoryError.invalid(error) }
}

/// Turns SQLite failures into errors a person can act on.
package enum StoreErrors {
    package static func map(_ error: DatabaseError, context: String? = nil) -> InventoryError {
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
