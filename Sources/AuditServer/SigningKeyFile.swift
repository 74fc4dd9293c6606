import Foundation
import InventoryCore

/// Where the server's token-signing key comes from. It is never kept in the database, which
/// every user of the server's files may be able to read.
public enum SigningKeySource: Sendable, Equatable {
    /// A key file readable by its owner only: created mode 0600 on first use, refused when its
    /// mode lets anyone else read it. Replacing the file (`users rotate-key`) logs everyone out.
    case file(String)
    /// A key given to the process (`AUDIT_STATION_JWT_SECRET`), at least 32 bytes.
    case secret(Data)

    /// The environment variable that overrides the key file.
    public static let environmentVariable = "AUDIT_STATION_JWT_SECRET"

    /// The key file beside a database: `<database>.jwt-key`.
    public static func beside(database path: String) -> SigningKeySource { .file(path + ".jwt-key") }

    /// The key of `AUDIT_STATION_JWT_SECRET` when set, else the file named, else the file
    /// beside the database file; nil when there is none of these (a database server).
    public static func resolve(
        file: String?, database: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> SigningKeySource? {
        if let value = environment[environmentVariable], !value.isEmpty { return .secret(try SigningKeyFile.environmentKey(value)) }
        return file.map { .file($0) } ?? database.map { beside(database: $0) }
    }
}

/// Reads, creates and replaces the signing-key file. The key is 64 random bytes, written as
/// base64 text so an administrator can copy it into `AUDIT_STATION_JWT_SECRET`.
public enum SigningKeyFile {
    static let minimumBytes = 32

    /// When the file last changed; a different stamp means the key was rotated.
    struct Stamp: Equatable {
        var inode: UInt64
        var modified: timespec
        static func == (a: Stamp, b: Stamp) -> Bool {
            a.inode == b.inode && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
        }
    }

    /// The key in the file, creating the file (0600) with a new key when there is none.
    static func loadOrCreate(path: String) throws -> (key: Data, stamp: Stamp) {
        if !FileManager.default.fileExists(atPath: path) {
            do { try write(newKey(), to: path, exclusive: true) } catch SigningKeyError.exists {
                // Another server process created it first; read theirs.
            }
        }
        return try load(path: path)
    }

    /// The key in an existing file, after checking that only its owner can read it.
    static func load(path: String) throws -> (key: Data, stamp: Stamp) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw failure("cannot read the signing-key file \(path)", errno: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure("cannot inspect the signing-key file \(path)", errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw SigningKeyError.problem("the signing-key file \(path) is not a regular file") }
        guard info.st_mode & 0o077 == 0 else {
            throw SigningKeyError.problem(
                String(
                    format:
                        "the signing-key file %@ can be read by other users (mode %o); run `chmod 600 %@`, then `audit-station users rotate-key`, since the key may have been seen",
                    path, Int(info.st_mode & 0o777), path))
        }
        guard info.st_uid == geteuid() else {
            throw SigningKeyError.problem("the signing-key file \(path) belongs to another user; the server must own its key")
        }
        guard info.st_size <= 4096 else { throw SigningKeyError.problem("the signing-key file \(path) is too large to be a key") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count == bytes.count else { throw failure("cannot read the signing-key file \(path)", errno: errno) }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let key = Data(base64Encoded: text), key.count >= minimumBytes else {
            throw SigningKeyError.problem(
                "the signing-key file \(path) does not hold a key of at least \(minimumBytes) bytes in base64; remove it or run `audit-station users rotate-key`"
            )
        }
        return (key, Stamp(inode: UInt64(info.st_ino), modified: info.st_mtim))
    }

    /// The file's stamp, or nil when it cannot be read.
    static func stamp(path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(inode: UInt64(info.st_ino), modified: info.st_mtim)
    }

    /// Replaces the key with a new one. Every token signed with the old key stops working:
    /// a running server picks the new key up within a second.
    public static func rotate(path: String) throws {
        let temporary = path + ".new-\(UUID().uuidString.prefix(8))"
        try write(newKey(), to: temporary, exclusive: true)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure("cannot replace the signing-key file \(path)", errno: code)
        }
    }

    /// A key from the environment: base64 of at least 32 bytes, or text of at least 32 bytes.
    public static func environmentKey(_ value: String) throws -> Data {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if let decoded = Data(base64Encoded: trimmed), decoded.count >= minimumBytes { return decoded }
        guard trimmed.utf8.count >= minimumBytes else {
            throw SigningKeyError.problem(
                "\(SigningKeySource.environmentVariable) must hold at least \(minimumBytes) bytes (for example `openssl rand -base64 48`)")
        }
        return Data(trimmed.utf8)
    }

    static func newKey() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<64).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Writes a key to a new file that is mode 0600 from the moment it exists.
    private static func write(_ key: Data, to path: String, exclusive: Bool) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | (exclusive ? O_EXCL : O_TRUNC), 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { throw SigningKeyError.exists }
            throw failure("cannot create the signing-key file \(path)", errno: errno)
        }
        defer { close(descriptor) }
        let text = Array((key.base64EncodedString() + "\n").utf8)
        let written = text.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        guard written == text.count, fsync(descriptor) == 0 else {
            unlink(path)
            throw failure("cannot write the signing-key file \(path)", errno: errno)
        }
    }

    private static func failure(_ what: String, errno code: Int32) -> SigningKeyError {
        .problem("\(what): \(String(cString: strerror(code)))")
    }
}

/// A signing key that cannot be used, with what to do about it.
public enum SigningKeyError: Error, LocalizedError, CustomStringConvertible {
    /// The key file already exists (creating it raced another process).
    case exists
    case problem(String)

    public var errorDescription: String? {
        switch self {
        case .exists: "the signing-key file already exists"
        case .problem(let message): message
        }
    }

    public var description: String { errorDescription ?? "signing key" }
}
