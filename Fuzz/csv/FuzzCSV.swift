import FuzzEntries

#if FUZZING
import CFuzzDriver

/// The executable's entry point (SwiftPM links `main` to it): libFuzzer's driver, feeding any
/// bytes to the asset import as a CSV file.
@_cdecl("fuzz_csv_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var (argc, argv) = (argc, argv)
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        _ = CSVFuzzEntry.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }
}
#else
/// Without libFuzzer: `fuzz-csv FILE|FOLDER…` replays inputs.
@main
struct FuzzCSV {
    static func main() {
        FuzzReplay.main(Array(CommandLine.arguments.dropFirst())) { bytes in
            ("\(CSVFuzzEntry.run(bytes))", true)
        }
    }
}
#endif
