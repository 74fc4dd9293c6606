import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a whole file into memory with a size limit, keeping the system's reason on failure.
///
/// A path that is not a plain file never makes the reading wait for ever: it is opened without
/// blocking, so a named pipe with no writer (one left in a folder of photos) reads as empty at
/// once, and a pipe or device that stops sending (a terminal) is given up after `quietLimit`.
/// A pipe that sends a whole image (`decode <(curl …)`) is read to its end.
enum ImageFile {
    /// How long a pipe or device may send nothing before it is given up, in milliseconds.
    static let quietLimit: Int32 = 5_000

    static func contents(of path: String, limit: Int) throws(ImageError) -> [UInt8] {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw .unreadable(path: path, reason: systemReason()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: systemReason()) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .isDirectory(path: path) }
        let declared = Int(info.st_size)
        if declared > limit { throw .fileTooLarge(path: path, bytes: declared, limit: limit) }
        // One byte more than expected, so that a file that grew (or a pipe) is noticed.
        var bytes = [UInt8](repeating: 0, count: max(declared, 4096) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                guard filled <= limit else { throw .fileTooLarge(path: path, bytes: filled, limit: limit) }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - filled)))
            }
            let count = bytes.withUnsafeMutableBytes { buffer in
                read(fd, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    let status = poll(&ready, 1, quietLimit)
                    if status < 0 && errno != EINTR { throw .unreadable(path: path, reason: systemReason()) }
                    if status == 0 {
                        throw .unreadable(path: path, reason: "nothing came from it for \(quietLimit / 1000) s (a pipe or device, not a file)")
                    }
                    continue
                }
                if errno == EISDIR { throw .isDirectory(path: path) }
                throw .unreadable(path: path, reason: systemReason())
            }
            if count == 0 { break }
            filled += count
        }
        if filled > limit { throw .fileTooLarge(path: path, bytes: filled, limit: limit) }
        if filled == 0 && (info.st_mode & S_IFMT) == S_IFIFO {
            throw .unreadable(path: path, reason: "it is a named pipe, and nothing was writing to it")
        }
        if filled == 0 { throw .empty(path: path) }
        bytes.removeSubrange(filled...)
        return bytes
    }

    private static func systemReason() -> String {
        String(cString: strerror(errno))
    }
}
