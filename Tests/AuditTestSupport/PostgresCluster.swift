import Foundation
import InventoryCore
import PostgresStore
import TestKit

/// A private PostgreSQL cluster for the tests: `initdb` and `pg_ctl` in a temporary folder, on
/// a free port, trusting connections from 127.0.0.1 only (and run as the `postgres` user when
/// the tests run as root, since PostgreSQL refuses root). One cluster serves the whole test
/// process, started on first use; each test takes a fresh database of its own. The cluster is
/// stopped and its folder deleted when the process exits, and a later run removes clusters
/// left by a process that died.
public final class PostgresCluster: Sendable {
    public let port: Int
    public let folder: String

    private init(port: Int, folder: String) {
        self.port = port
        self.folder = folder
    }

    /// The process's cluster, started on first use.
    public static func shared() async throws -> PostgresCluster { try await started.value }

    private static let started = ThreadsExecutor.cluster.task { try await start() }

    /// A URL of a new database on the cluster: empty, or a copy of `template`.
    public func newDatabase(template: String? = nil) async throws -> PostgresURL {
        let name = "audit_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await PostgresDatabase.createDatabase(name, template: template, on: try url(database: "postgres"))
        return try url(database: name)
    }

    /// The URL of `database` on the cluster.
    public func url(database: String) throws -> PostgresURL {
        // A minute to connect: with the whole suite on two cores, a connection has waited
        // longer than the default 10 s.
        try PostgresURL("postgres://postgres@127.0.0.1:\(port)/\(database)?sslmode=disable&connect_timeout=60")
    }

    /// A URL of a new database whose schema is made: a copy of a template migrated once per
    /// process. Copying a few megabytes costs the server far less than running every migration
    /// again in each test's database (opening it still runs any migration the copy lacks).
    public func newMigratedDatabase() async throws -> PostgresURL {
        try await newDatabase(template: try await Self.migratedTemplate.value)
    }

    /// The template's name, once it is made and migrated; nothing stays connected to it.
    private static let migratedTemplate = ThreadsExecutor.cluster.task { try await migrateTemplate() }

    private static func migrateTemplate() async throws -> String {
        let cluster = try await shared()
        let name = "audit_template"
        try await PostgresDatabase.createDatabase(name, on: try cluster.url(database: "postgres"))
        _ = try await PostgresDatabase.open(try cluster.url(database: name))
        return name
    }

    /// Runs `body` with a new database, its schema made and its pool running; closed after
    /// (`PostgresDatabase.whileRunning`, which waits for the pool's shutdown at most 10 s).
    public static func withNewDatabase<T>(_ body: (PostgresDatabase) async throws -> T) async throws -> T {
        let database = try await PostgresDatabase.open(try await shared().newMigratedDatabase())
        return try await database.whileRunning { try await body(database) }
    }

    /// A new database, its schema made and its pool running until `close`: for a fixture that
    /// outlives one scope (a test server started now and stopped later). It is
    /// `withNewDatabase` in a task of its own, whose body waits for `close`.
    public static func openNewDatabase() async throws -> (database: PostgresDatabase, close: @Sendable () async -> Void) {
        let (opened, opening) = AsyncThrowingStream.makeStream(of: PostgresDatabase.self)
        let (closed, closing) = AsyncStream.makeStream(of: Never.self)
        let task = Task(executorPreference: ThreadsExecutor.preferred) {
            do {
                try await withNewDatabase { database in
                    opening.yield(database)
                    for await _ in closed {}
                }
                opening.finish()
            } catch {
                opening.finish(throwing: error)
            }
        }
        let close: @Sendable () async -> Void = {
            closing.finish()
            await Self.waitForShutdown(of: task)
        }
        var iterator = opened.makeAsyncIterator()
        guard let database = try await iterator.next() else {
            await close()
            throw InventoryError.unavailable("the test database did not open")
        }
        return (database, close)
    }

    /// The longest a test waits for a database's pool to shut down once its test is done.
    static let shutdownLimit: Duration = .seconds(30)

    /// Waits for `task` (a database's pool running until its test is done) to end, at most
    /// `shutdownLimit`. Twice in whole runs a pool's shutdown never ended, with no connection
    /// left open on the cluster, and the whole test process waited forever for one case of the
    /// rules table. Past the limit the test goes on, says so on standard error, and leaves that
    /// pool to the process's end.
    static func waitForShutdown(of task: Task<Void, Never>) async {
        guard await !PostgresDatabase.wait(for: task, atMost: shutdownLimit) else { return }
        FileHandle.standardError.write(
            Data("a test database's pool did not shut down within \(shutdownLimit); it is left to the process's end\n".utf8))
    }

    // MARK: starting and stopping

    static let prefix = "audit-pg-"

    private static func start() async throws -> PostgresCluster {
        await removeAbandoned()
        let bin = try binaries()
        let folder = Scratch.base.appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if geteuid() == 0 { try await run("/bin/chown", ["postgres:postgres", folder]) }
        try await runAsPostgres(bin + "/initdb", ["-D", folder + "/data", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"])
        // A port below the ephemeral range, which no client socket of the run's other tests can
        // take before the cluster binds it (one did, from the ephemeral range, while every suite
        // started at once: "could not bind IPv4 address", and every PostgreSQL test failed);
        // another port if one is taken all the same.
        var port = 0
        for attempt in 1...3 {
            port = try Loopback.longLivedPort()
            // Every test server has a pool of up to 40 connections, and a hundred of them run at once
            // in a full run: at 300 the cluster refused clients ("too many clients already") and
            // their requests ran into the tests' 20 s deadline.
            let options =
                "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
                + " -c max_connections=1000"
            do {
                try await runAsPostgres(
                    bin + "/pg_ctl", ["-D", folder + "/data", "-l", folder + "/server.log", "-o", options, "-w", "-t", "60", "start"])
                break
            } catch {
                let log = (try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? ""
                guard attempt < 3, log.contains("could not bind") || log.contains("Address already in use") else { throw error }
            }
        }
        stopAtExit = (bin, folder)
        atexit { PostgresCluster.stopNow() }
        return PostgresCluster(port: port, folder: folder)
    }

    /// What `atexit` stops: set once, when the cluster has started.
    nonisolated(unsafe) private static var stopAtExit: (bin: String, folder: String)?

    /// Stops the cluster as the test process exits: no task runs any more then, so this one
    /// place spawns and waits synchronously (`spawnAndWaitAtExit`).
    private static func stopNow() {
        guard let (bin, folder) = stopAtExit else { return }
        let pgctl = [bin + "/pg_ctl", "-D", folder + "/data", "-m", "immediate", "-w", "-t", "30", "stop"]
        spawnAndWaitAtExit(geteuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + pgctl : pgctl)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Stops the clusters of test processes that are gone (killed before their exit handler ran).
    private static func removeAbandoned() async {
        let temporary = Scratch.base.path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary), let bin = try? binaries() else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).split(separator: "-").first ?? ""), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let folder = temporary + "/" + name
            try? await runAsPostgres(bin + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "-t", "30", "stop"])
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// The folder of `initdb` and `pg_ctl`: $AUDIT_STATION_PG_BIN, or Debian's newest.
    static func binaries() throws -> String {
        if let bin = ProcessInfo.processInfo.environment["AUDIT_STATION_PG_BIN"] { return bin }
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        guard let newest = versions.last else {
            throw InventoryError.unavailable("PostgreSQL is not installed (no \(root)/*/bin); run scripts/setup.sh")
        }
        return "\(root)/\(newest)/bin"
    }

    private static func runAsPostgres(_ tool: String, _ arguments: [String]) async throws {
        if geteuid() == 0 {
            try await run("/usr/sbin/runuser", ["-u", "postgres", "--", tool] + arguments)
        } else {
            try await run(tool, arguments)
        }
    }

    /// Runs a tool to its end; returns what it printed, or throws with it when it failed. Its
    /// output goes to a file, not a pipe: the server that `pg_ctl start` leaves running inherits
    /// the output, and a pipe would then never reach its end. swift-subprocess notices the
    /// tool's own exit through its pidfd.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) async throws -> String {
        let output = Scratch.root.appendingPathComponent("audit-pg-output-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let child = try await Child.start(tool, arguments, log: output)
        let status = await child.wait()
        let text = child.logText
        guard status == 0, !child.isRunning else {
            throw InventoryError.unavailable("\(tool) \(arguments.joined(separator: " ")) failed (status \(status)): \(text.suffix(2000))")
        }
        return text
    }

    /// Spawns `argv` and waits for it with `waitpid`, its output discarded. Only for `atexit`,
    /// where no task can run and blocking the exiting thread harms nothing.
    private static func spawnAndWaitAtExit(_ argv: [String]) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let pointers: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        var pid = pid_t()
        guard posix_spawn(&pid, argv[0], &actions, nil, pointers, environ) == 0 else { return }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }
}

extension PostgresCluster {
    /// Runs SQL with `psql` as the cluster's superuser, in `database`; returns the rows, one a
    /// line, columns separated by `|`.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") async throws -> [String] {
        let bin = try Self.binaries()
        let port = port
        return try await Self.run(
            bin + "/psql",
            [
                "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database,
                "-v", "ON_ERROR_STOP=1", "-q", "-At", "-c", sql
            ]
        )
        .split(separator: "\n").map(String.init)
    }
}
