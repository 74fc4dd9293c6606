import Foundation

/// The codes found in one image file, or why the file could not be read.
public struct ImageDecodeResult: Sendable, Equatable {
    public let path: String
    public let outcome: Result<[DecodedCode], ImageError>

    public init(path: String, outcome: Result<[DecodedCode], ImageError>) {
        self.path = path
        self.outcome = outcome
    }
}

/// Decodes files and folders one image at a time, in a stable order: the paths as given, and
/// within a folder its entries sorted by name, sub-folders walked in place. Inside a folder
/// only image files (by name, `ImageWalker.imageExtensions`) are taken and hidden entries are
/// skipped; a path given explicitly is always tried. A failure is a result for that path, and
/// the walk goes on (a named pipe among them is refused at once: `ImageFile`).
///
/// Work happens in `next()`: nothing is decoded ahead, and memory holds one image plus the
/// names of the folders being walked, so a folder of 10,000 images runs in bounded memory.
/// Usable with `for` and with `for await`; each iterator owns its own `BarcodeDecoder`.
public struct ImageDecodeSequence: Sequence, AsyncSequence, Sendable {
    public typealias Element = ImageDecodeResult
    public let paths: [String]
    public let config: DecoderConfig
    public let limits: ImageLimits

    public init(paths: [String], config: DecoderConfig = .init(), limits: ImageLimits = .init()) {
        self.paths = paths
        self.config = config
        self.limits = limits
    }

    public func makeIterator() -> Iterator { Iterator(sequence: self) }
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: makeIterator()) }

    public struct Iterator: IteratorProtocol {
        private let sequence: ImageDecodeSequence
        private var walker: ImageWalker
        private var decoder: Result<BarcodeDecoder, DecoderError>?

        init(sequence: ImageDecodeSequence) {
            self.sequence = sequence
            self.walker = ImageWalker(paths: sequence.paths)
        }

        public mutating func next() -> ImageDecodeResult? {
            guard let entry = walker.next() else { return nil }
            switch entry {
            case .failed(let error):
                return ImageDecodeResult(path: error.path, outcome: .failure(error))
            case .file(let path):
                return ImageDecodeResult(path: path, outcome: decode(path))
            }
        }

        private mutating func decode(_ path: String) -> Result<[DecodedCode], ImageError> {
            if decoder == nil {
                do throws(DecoderError) { decoder = .success(try BarcodeDecoder(config: sequence.config)) } catch { decoder = .failure(error) }
            }
            switch decoder {
            case .success(let barcodes):
                do throws(ImageError) {
                    return .success(barcodes.decode(try ImageLoader.load(path: path, limits: sequence.limits)))
                } catch {
                    return .failure(error)
                }
            case .failure(let error):
                return .failure(.decoderUnavailable(path: path, reason: error.localizedDescription))
            case nil:
                return .failure(.decoderUnavailable(path: path, reason: "no decoder"))
            }
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Iterator
        public mutating func next() async -> ImageDecodeResult? { base.next() }
    }
}

/// `ImageDecodeSequence(paths:config:)` under the name the command line uses.
public func decodeImages(paths: [String], config: DecoderConfig) -> ImageDecodeSequence {
    ImageDecodeSequence(paths: paths, config: config)
}
