import Scanning

/// The images fuzz target's one step: bytes through `ImageLoader.decode`, then the decoder with
/// every retry pass, as `decode` and `audit scan --images` run them. The fuzzer, the regression
/// tests and the peak-memory replay all call this, so a crash found by one is seen by all.
public final class ImageFuzzEntry {
    public enum Outcome: Equatable, Sendable {
        /// The bytes are not an image the loader accepts; the message names why.
        case refused(String)
        /// An image of this size, and the texts of the codes read in it.
        case decoded(width: Int, height: Int, codes: [String])
    }

    private let decoder: BarcodeDecoder

    public init(config: DecoderConfig = DecoderConfig()) throws(DecoderError) {
        decoder = try BarcodeDecoder(config: config)
    }

    public func run(_ bytes: [UInt8]) -> Outcome {
        do {
            let image = try ImageLoader.decode(bytes, path: "input")
            let codes = decoder.decode(image)
            return .decoded(width: image.width, height: image.height, codes: codes.map(\.text))
        } catch {
            return .refused(error.errorDescription ?? "unreadable image")
        }
    }
}
