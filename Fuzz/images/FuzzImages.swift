import FuzzEntries

#if FUZZING
import CFuzzDriver

nonisolated(unsafe) private let entry = try! ImageFuzzEntry()

/// The executable's entry point (SwiftPM links `main` to it): libFuzzer's driver, feeding any
/// bytes through the image loaders and the decoder.
@_cdecl("fuzz_images_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var (argc, argv) = (argc, argv)
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        _ = entry.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }
}
#else
/// Without libFuzzer: `fuzz-images FILE|FOLDER…` replays inputs and reports peak memory.
@main
struct FuzzImages {
    static func main() throws {
        let entry = try ImageFuzzEntry()
        FuzzReplay.main(Array(CommandLine.arguments.dropFirst())) { bytes in
            switch entry.run(bytes) {
            case .refused(let message): ("refused: \(message)", true)
            case .decoded(let width, let height, let codes): ("decoded \(width)×\(height): \(codes)", true)
            }
        }
    }
}
#endif
