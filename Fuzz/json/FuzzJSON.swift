import FuzzEntries

#if FUZZING
import CFuzzDriver

/// The executable's entry point (SwiftPM links `main` to it): libFuzzer's driver, feeding any
/// bytes as the body of every call that takes JSON. A body the server would answer with a 500
/// stops the fuzzer like a crash.
@_cdecl("fuzz_json_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var (argc, argv) = (argc, argv)
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        for outcome in JSONFuzzEntry.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []) {
            if case .unexpected(let body, let error) = outcome { fatalError("\(body): the server would answer 500: \(error)") }
        }
        return 0
    }
}
#else
/// Without libFuzzer: `fuzz-json FILE|FOLDER…` replays inputs; exits 1 when one would be a 500.
@main
struct FuzzJSON {
    static func main() {
        FuzzReplay.main(Array(CommandLine.arguments.dropFirst())) { bytes in
            let outcomes = JSONFuzzEntry.run(bytes)
            let unexpected = outcomes.filter { if case .unexpected = $0 { true } else { false } }
            return (unexpected.isEmpty ? "\(outcomes.count) bodies, no 5xx" : "\(unexpected)", unexpected.isEmpty)
        }
    }
}
#endif
