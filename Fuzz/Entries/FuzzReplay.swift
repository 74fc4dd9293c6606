import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a fuzz executable does when it is built without libFuzzer: runs files (and every file
/// in folders) through the same step as the fuzzer, prints one line a file, then the process's
/// resident memory before the first input and at its peak, in KiB. Exits 1 when any step
/// reported a failure.
public enum FuzzReplay {
    public static func main(_ arguments: [String], step: ([UInt8]) -> (line: String, ok: Bool)) -> Never {
        let baseline = peakResidentKiB()
        var failures = 0, count = 0
        for path in files(arguments) {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot read"); failures += 1; continue
            }
            let before = peakResidentKiB()
            let (line, ok) = step([UInt8](data))
            let after = peakResidentKiB()
            count += 1
            if !ok { failures += 1 }
            print("\(path): \(ok ? "ok" : "FAILED") \(line)\(after > before ? " (peak now \(after) KiB)" : "")")
        }
        let peak = peakResidentKiB()
        print("inputs: \(count), failures: \(failures)")
        print("baseline-rss-kib: \(baseline) peak-rss-kib: \(peak) above-baseline-kib: \(peak - baseline)")
        exit(failures == 0 ? 0 : 1)
    }

    /// The files named, with folders expanded (sorted, not recursive beyond one level of files).
    static func files(_ arguments: [String]) -> [String] {
        arguments.flatMap { path -> [String] in
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [path] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.sorted().map { (path as NSString).appendingPathComponent($0) }.filter {
                var nested: ObjCBool = false
                return FileManager.default.fileExists(atPath: $0, isDirectory: &nested) && !nested.boolValue
            }
        }
    }

    /// The peak resident set size of this process so far (getrusage's ru_maxrss), in KiB.
    public static func peakResidentKiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }
}
