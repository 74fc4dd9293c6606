import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Walks paths depth-first, expanding folders lazily into their sorted image files.
struct ImageWalker {
    enum Entry {
        case file(String)
        case failed(ImageError)
    }

    /// The names a folder's images have: every format `ImageLoader` reads.
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "webp", "heic", "heif", "hif", "avif", "pgm", "ppm", "pnm"]

    /// Paths still to visit, the next one last. `explicit` marks paths the caller named.
    private var pending: [(path: String, explicit: Bool)]
    private var visitedFolders: Set<[UInt64]> = []

    init(paths: [String]) {
        pending = paths.reversed().map { ($0, true) }
    }

    mutating func next() -> Entry? {
        while let (path, explicit) = pending.popLast() {
            var info = stat()
            guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                // Files, and paths that cannot be examined: the loader reports the problem.
                if explicit || Self.isImageName(path) { return .file(path) }
                continue
            }
            guard visitedFolders.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { continue }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
            } catch {
                return .failed(.unreadable(path: path, reason: "cannot list the folder: \(Self.reason(error))"))
            }
            let base = path.hasSuffix("/") ? path : path + "/"
            for name in names.filter({ !$0.hasPrefix(".") }).sorted(by: >) {
                pending.append((base + name, false))
            }
        }
        return nil
    }

    static func isImageName(_ path: String) -> Bool {
        imageExtensions.contains((path as NSString).pathExtension.lowercased())
    }

    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(code)))
        }
        return error.localizedDescription
    }
}
