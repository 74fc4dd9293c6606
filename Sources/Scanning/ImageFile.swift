import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a whole file into memory with a size limit, keeping the system's reason on failure.
enum ImageFile {
    static func contents(of path: String, limit: Int) throws(ImageError) -> [UInt8] {
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
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
                if errno == EISDIR { throw .isDirectory(path: path) }
                throw .unreadable(path: path, reason: systemReason())
            }
            if count == 0 { break }
            filled += count
        }
        if filled > limit { throw .fileTooLarge(path: path, bytes: filled, limit: limit) }
        if filled == 0 { throw .empty(path: path) }
        bytes.removeSubrange(filled...)
        return bytes
    }

    private static func systemReason() -> String {
        String(cString: strerror(errno))
    }
}
