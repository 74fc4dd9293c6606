import Foundation
import InventoryCore
import Logging
import NIOSSL
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// One PostgreSQL database shared by every server process that points at it: a pool of
/// connections, and transactions that turn database failures into `InventoryError`s.
///
/// The pool works while the database runs, as a `Service`: a server's `ServiceGroup` runs it
/// beside the HTTP server and, on a graceful shutdown, closes it once the HTTP server has
/// stopped. Anything else runs it for a scope with `whileRunning`. Queries wait until it runs.
public final class PostgresDatabase: Service, Sendable {
    public let url: PostgresURL
    let client: PostgresClient
    /// The turns this process's scans take at each audit's write.
    let turns = AuditTurns()
    /// The countries of audits seen by this process (see `PostgresAuditService.country(ofAudit:)`).
    let auditCountries = Mutex<[AuditID: String]>([:])

    static let logger = Logger(label: "audit-station.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    private init(url: PostgresURL, client: PostgresClient) {
        self.url = url
        self.client = client
    }

    /// Connects once to check the address and the credentials (so a refused connection or a
    /// wrong password is one clear error, not a pool's retries), brings the schema up to date
    /// under an advisory lock, then makes a pool of up to `maxConnections` connections, which
    /// opens them once it runs (`run`, `whileRunning`).
    public static func open(_ url: PostgresURL, maxConnections: Int = 40) async throws -> PostgresDatabase {
        try await withOneConnection(url) { try await PostgresMigrations.run(on: $0) }
        var configuration = try clientConfiguration(url)
        configuration.options.maximumConnections = maxConnections
        return PostgresDatabase(url: url, client: PostgresClient(configuration: configuration, backgroundLogger: logger))
    }

    /// Runs the pool until this task is cancelled or its service group shuts down gracefully,
    /// then closes its connections; queries after that fail. A database runs once.
    public func run() async {
        await client.run()
    }

    /// Runs the pool for the span of `body` and closes it after, whether `body` returns or
    /// throws: the way to use the database outside a server (a command, a test).
    ///
    /// The pool's shutdown is waited for at most `shutdownLimit`: in a test run a pool's
    /// shutdown once never ended, with no connection left on the server, and a command would
    /// then never exit after its work was done. Past the limit the scope ends and leaves the
    /// pool to the process's end.
    public func whileRunning<T>(_ body: () async throws -> T) async throws -> T {
        let pool = Task { await self.run() }
        let result: Result<T, any Error>
        do {
            result = .success(
                try await withTaskCancellationHandler {
                    try await body()
                } onCancel: {
                    pool.cancel()
                })
        } catch {
            result = .failure(error)
        }
        pool.cancel()
        await Self.wait(for: pool, atMost: Self.shutdownLimit)
        return try result.get()
    }

    /// The longest `whileRunning` waits for the pool to close its connections once its scope is done.
    static let shutdownLimit: Duration = .seconds(10)

    /// Waits until `task` ends or `limit` has passed, whichever comes first; whether the task
    /// ended. The task is left running past the limit, not cancelled.
    @discardableResult
    package static func wait(for task: Task<Void, Never>, atMost limit: Duration) async -> Bool {
        let resumed = Mutex(false)
        return await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            let resumeOnce: @Sendable (Bool) -> Void = { ended in
                let first = resumed.withLock { (taken: inout Bool) -> Bool in
                    defer { taken = true }
                    return !taken
                }
                if first { done.resume(returning: ended) }
            }
            let timer = Task {
                try? await Task.sleep(for: limit)
                resumeOnce(false)
            }
            Task {
                await task.value
                timer.cancel()
                resumeOnce(true)
            }
        }
    }

    /// Runs `body` on one connection outside a transaction (each statement commits alone).
    func read<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        do { return try await client.withConnection { connection in try await body(connection) } } catch { throw PostgresErrors.map(error) }
    }

    /// Runs `body` in one transaction (postgres-nio's `withTransaction`): committed when it
    /// returns, rolled back when it throws, and the error rethrown as it was, mapped to an
    /// `InventoryError`. `mode` is set as the transaction's first statement.
    func transaction<T: Sendable>(_ mode: TransactionMode = .readCommitted, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await client.withTransaction(logger: Self.logger) { connection in
                if let setting = mode.setting { try await connection.run(setting) }
                return try await body(connection)
            }
        } catch { throw PostgresErrors.map(error) }
    }

    /// Runs `body` in one transaction that is always rolled back: what it would change, seen
    /// from inside, with nothing kept (a preview).
    func rolledBack<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await client.withConnection { connection in
                try await connection.run("BEGIN")
                do {
                    let answer = try await body(connection)
                    try await connection.run("ROLLBACK")
                    return answer
                } catch {
                    try? await connection.run("ROLLBACK")
                    throw error
                }
            }
        } catch { throw PostgresErrors.map(error) }
    }

    /// Runs one statement as given, outside a transaction: for tools that fill a database (the
    /// benchmarks, a package of their own, do), never with text from a user.
    public func execute(_ sql: String) async throws {
        try await read { try await $0.run(PostgresQuery(unsafeSQL: sql)) }
    }

    /// Throws unless a query answers within five seconds.
    public func ping() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { _ = try await self.read { try await $0.run("SELECT 1") } }
            group.addTask {
                try await Task.sleep(for: .seconds(5))
                throw InventoryError.unavailable("PostgreSQL at \(self.url) did not answer within 5 s")
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    static func connectionConfiguration(_ url: PostgresURL) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let folder = url.socketFolder {
            configuration = .init(
                unixSocketPath: "\(folder)/.s.PGSQL.\(url.port)", username: url.user, password: url.password,
                database: url.database)
        } else {
            let tls: PostgresConnection.Configuration.TLS
            switch url.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: tlsConfiguration(url)))
            case .require, .verifyFull: tls = .require(try NIOSSLContext(configuration: tlsConfiguration(url)))
            }
            configuration = .init(
                host: url.host, port: url.port, username: url.user, password: url.password,
                database: url.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(Int64(url.connectTimeout))
        return configuration
    }

    static func clientConfiguration(_ url: PostgresURL) throws -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let folder = url.socketFolder {
            configuration = .init(
                unixSocketPath: "\(folder)/.s.PGSQL.\(url.port)", username: url.user, password: url.password,
                database: url.database)
        } else {
            let tls: PostgresClient.Configuration.TLS
            switch url.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(tlsConfiguration(url))
            case .require, .verifyFull: tls = .require(tlsConfiguration(url))
            }
            configuration = .init(host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(url.connectTimeout)
        return configuration
    }

    /// libpq checks the certificate only for verify-ca and verify-full; so does this.
    static func tlsConfiguration(_ url: PostgresURL) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if url.tls != .verifyFull { tls.certificateVerification = .none }
        return tls
    }
}

/// What a transaction sees and may do.
enum TransactionMode: Sendable {
    /// The server's default, PostgreSQL's READ COMMITTED: each statement sees what was
    /// committed before it began. Nothing is set.
    case readCommitted
    /// One snapshot for the whole transaction, which only reads: the parts of a report are of
    /// one moment.
    case snapshotReadOnly

    /// The `SET TRANSACTION` that gives this mode, run first in the transaction.
    var setting: PostgresQuery? {
        switch self {
        case .readCommitted: nil
        case .snapshotReadOnly: "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"
        }
    }
}

extension PostgresConnection {
    /// Runs a statement whose rows (if any) are not needed.
    func run(_ query: PostgresQuery) async throws {
        try await self.query(query, logger: PostgresDatabase.logger).consume()
    }

    /// Every row of a query.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        var rows: [PostgresRandomAccessRow] = []
        for try await row in try await self.query(query, logger: PostgresDatabase.logger) { rows.append(row.makeRandomAccess()) }
        return rows
    }

    /// The first row of a query, or nil.
    func row(_ query: PostgresQuery) async throws -> PostgresRandomAccessRow? {
        try await rows(query).first
    }

    /// `count(*)` of a query, for pagination.
    func count(_ sql: String, _ binds: PostgresBindings) async throws -> Int {
        try await row(PostgresQuery(unsafeSQL: "SELECT count(*) FROM (\(sql)) AS counted", binds: binds))?.int(0) ?? 0
    }
}

/// A statement of the scan path that each connection prepares once and then runs by name:
/// its plan is made once per connection instead of on every call, which is most of a small
/// statement's cost. The parameter types are given, so a value's type never depends on
/// which call came first.
protocol PreparedSQL: Sendable {
    static var sql: String { get }
    static var types: [PostgresDataType] { get }
}

/// The postgres-nio form of a `PreparedSQL`: named after the type, so each variant is its own
/// prepared statement.
struct Prepared<Statement: PreparedSQL>: PostgresPreparedStatement {
    typealias Row = PostgresRandomAccessRow
    static var sql: String { Statement.sql }
    static var bindingDataTypes: [PostgresDataType] { Statement.types }
    let bindings: PostgresBindings
    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRandomAccessRow { row.makeRandomAccess() }
}

extension PostgresConnection {
    /// Every row of a prepared statement, prepared on this connection at its first use.
    func rows<Statement: PreparedSQL>(_ statement: Statement.Type, _ bindings: PostgresBindings) async throws -> [PostgresRandomAccessRow] {
        var rows: [PostgresRandomAccessRow] = []
        for try await row in try await execute(Prepared<Statement>(bindings: bindings), logger: PostgresDatabase.logger) { rows.append(row) }
        return rows
    }
}

extension PostgresRowSequence {
    /// Reads and drops the rows.
    func consume() async throws {
        for try await _ in self {}
    }
}

extension PostgresDatabase {
    /// Creates database `name` (letters, digits and underscores) on the server of `url` (which
    /// names an existing database to connect to, such as `postgres`): empty, or a copy of
    /// `template`, which nobody may be connected to meanwhile.
    public static func createDatabase(_ name: String, template: String? = nil, on url: PostgresURL) async throws {
        for name in [name] + (template.map { [$0] } ?? []) {
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 == UInt8(ascii: "_") || (48...57).contains($0) || (97...122).contains($0) }) else {
                throw InventoryError.invalid(ValidationError(field: "database", message: "'\(name)' is not a plain database name"))
            }
        }
        let copy = template.map { " TEMPLATE \($0)" } ?? ""
        try await withOneConnection(url) { try await $0.run(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)\(copy)")) }
    }

    /// Runs `body` on a connection of its own, outside the pool, and closes it. A failure to
    /// connect is one line naming the server (`PostgresErrors.connection`); a failure of `body`
    /// is mapped as any query's.
    static func withOneConnection(_ url: PostgresURL, _ body: (PostgresConnection) async throws -> Void) async throws {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: try connectionConfiguration(url), id: 0, logger: logger)
        } catch {
            throw PostgresErrors.connection(error, url: url)
        }
        do {
            try await body(connection)
            try? await connection.close()
        } catch {
            try? await connection.close()
            throw PostgresErrors.map(error)
        }
    }
}
