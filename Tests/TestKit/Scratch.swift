import Foundation

/// Where the tests keep their files: one folder for this test process, on `/dev/shm` (a tmpfs)
/// when the machine has one, else in the system's temporary folder.
///
/// Why memory: the product syncs what it must keep (SQLite at synchronous=FULL, and Foundation's
/// `Data.write` calls fsync on Linux), and on a virtual disk each fsync waits about 4 ms. Ten
/// thousand small files, or a few thousand committed scans, then spend most of a test waiting on
/// the disk, and every test in parallel with it waits in the same queue. What the tests check
/// (what is stored, what survives a killed process) does not depend on the disk: a killed
/// process leaves its written pages to the kernel either way, and a power cut is not tested.
///
/// Folders of test processes that are gone are removed when the next one starts, and this
/// process's folder when it exits.
public enum Scratch {
    /// The folder shared by all test processes; each keeps its files in a folder of its own
    /// named after its process id (`root`), and the PostgreSQL cluster beside it.
    public static let base: URL = {
        let base: URL
        if FileManager.default.isWritableFile(atPath: "/dev/shm") {
            base = URL(fileURLWithPath: "/dev/shm/audit-station-tests", isDirectory: true)
        } else {
            base = FileManager.default.temporaryDirectory.appendingPathComponent("audit-station-tests", isDirectory: true)
        }
        try? FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        // Anyone may pass through: the PostgreSQL cluster's folder belongs to `postgres`.
        chmod(base.path, 0o1777)
        return base
    }()

    /// This process's folder, made on first use.
    public static let root: URL = {
        removeAbandoned(in: base)
        let folder = base.appendingPathComponent("\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        removeAtExit = folder.path
        atexit { Scratch.removeNow() }
        return folder
    }()

    /// A new, empty folder under the root whose name starts with `prefix`.
    public static func folder(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A path under the root for a new file whose name starts with `prefix` and ends with
    /// `suffix` (such as ".jpg"); the file is not made.
    public static func file(_ prefix: String, suffix: String = "") -> URL {
        root.appendingPathComponent("\(prefix)-\(UUID().uuidString)\(suffix)")
    }

    nonisolated(unsafe) private static var removeAtExit: String?

    private static func removeNow() {
        guard let path = removeAtExit else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Removes the folders of test processes that are no longer running.
    private static func removeAbandoned(in base: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base.path) else { return }
        for name in names {
            guard let pid = Int32(name.split(separator: "-").first ?? ""), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(atPath: base.appendingPathComponent(name).path)
        }
    }
}
