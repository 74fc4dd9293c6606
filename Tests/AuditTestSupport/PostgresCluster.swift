import Foundation
import InventoryCore
import PostgresStore

/// A private PostgreSQL cluster for the tests: `initdb` and `pg_ctl` in a temporary folder, on
/// a free port, trusting connections from 127.0.0.1 only (and run as the `postgres` user when
/// the tests run as root, since PostgreSQL refuses root). One cluster serves the whole test
/// process, started on first use; each test takes a fresh database of its own. The cluster is
/// stopped and its folder deleted when the process exits, and a later run removes clusters
/// left by a process that died.
public final class PostgresCluster: Sendable {
    public let port: Int
    public let folder: String

    private init(port: Int, folder: String) { self.port = port; self.folder = folder }

    /// The process's cluster, started on first use.
    public static func shared() async throws -> PostgresCluster { try await started.value }

    private static let started = Task { try await start() }

    /// A URL of a new, empty database on the cluster.
    public func newDatabase() async throws -> PostgresURL {
        let name = "audit_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await PostgresDatabase.createDatabase(name, on: try url(database: "postgres"))
        return try url(database: name)
    }

    /// The URL of `database` on the cluster.
    public func url(database: String) throws -> PostgresURL {
        try PostgresURL("postgres://postgres@127.0.0.1:\(port)/\(database)?sslmode=disable")
    }

    /// Opens a new database with its schema; close it when done.
    public static func openNewDatabase() async throws -> PostgresDatabase {
        try await PostgresDatabase.open(try await shared().newDatabase())
    }

    // MARK: starting and stopping

    static let prefix = "audit-pg-"

    private static func start() async throws -> PostgresCluster {
        try await offPool {
            removeAbandoned()
            let bin = try binaries()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if geteuid() == 0 { try run("/bin/chown", ["postgres:postgres", folder]) }
            let port = try freePort()
            try runAsPostgres(bin + "/initdb", ["-D", folder + "/data", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"])
            let options = "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
            try runAsPostgres(bin + "/pg_ctl", ["-D", folder + "/data", "-l", folder + "/server.log", "-o", options, "-w", "-t", "60", "start"])
            stopAtExit = (bin, folder)
            atexit { PostgresCluster.stopNow() }
            return PostgresCluster(port: port, folder: folder)
        }
    }

    /// What `atexit` stops: set once, when the cluster has started.
    nonisolated(unsafe) private static var stopAtExit: (bin: String, folder: String)?

    private static func stopNow() {
        guard let (bin, folder) = stopAtExit else { return }
        try? runAsPostgres(bin + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "-t", "30", "stop"])
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Stops the clusters of test processes that are gone (killed before their exit handler ran).
    private static func removeAbandoned() {
        let temporary = FileManager.default.temporaryDirectory.path
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary), let bin = try? binaries() else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).split(separator: "-").first ?? ""), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let folder = temporary + "/" + name
            try? runAsPostgres(bin + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "-t", "30", "stop"])
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

    private static func runAsPostgres(_ tool: String, _ arguments: [String]) throws {
        if geteuid() == 0 { try run("/usr/sbin/runuser", ["-u", "postgres", "--", tool] + arguments) } else { try run(tool, arguments) }
    }

    /// Runs a tool to its end; returns what it printed, or throws with it when it failed. It is
    /// spawned and awaited with `waitpid`, its output going to a file: the server that
    /// `pg_ctl start` leaves running inherits what `Process` would use to notice the tool's
    /// exit (and a pipe's write end), so waiting through those would never end.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("audit-pg-output-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([tool] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, tool, &actions, nil, argv, environ)
        guard spawned == 0 else { throw InventoryError.unavailable("cannot run \(tool): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw InventoryError.unavailable("cannot wait for \(tool): \(String(cString: strerror(errno)))") }
        }
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0
        guard exited, (status >> 8) & 0xff == 0 else {
            throw InventoryError.unavailable("\(tool) \(arguments.joined(separator: " ")) failed (status \(status)): \(text.suffix(2000))")
        }
        return text
    }

    /// A port nothing listens on now: one the kernel hands out for 127.0.0.1.
    private static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw InventoryError.unavailable("cannot open a socket to find a free port") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw InventoryError.unavailable("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

extension PostgresCluster {
    /// Runs SQL with `psql` as the cluster's superuser, in `database`; returns the rows, one a
    /// line, columns separated by `|`.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") async throws -> [String] {
        let bin = try Self.binaries()
        let port = port
        return try await offPool {
            try Self.run(bin + "/psql", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1",
                                         "-q", "-At", "-c", sql])
        }.split(separator: "\n").map(String.init)
    }
}
