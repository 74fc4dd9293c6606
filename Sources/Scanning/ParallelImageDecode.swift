import Foundation

/// Decodes files and folders on several threads, each with its own `BarcodeDecoder`, and
/// hands the results over in the same order as `ImageDecodeSequence`: the paths as given,
/// folders sorted by name. The walk goes ahead by one batch (`batchPerWorker` images per
/// thread), so memory stays bounded however many files there are.
public struct ParallelImageDecode: Sendable {
    public let paths: [String]
    public let config: DecoderConfig
    public let limits: ImageLimits
    public let workers: Int
    public var batchPerWorker = 64

    /// `workers` defaults to the processors this process may use.
    public init(
        paths: [String], config: DecoderConfig = .init(), limits: ImageLimits = .init(),
        workers: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.paths = paths
        self.config = config
        self.limits = limits
        self.workers = max(1, workers)
    }

    /// Calls `body` with each result, in order, on the calling thread.
    public func run(_ body: (ImageDecodeResult) -> Void) {
        var walker = ImageWalker(paths: paths)
        let decoders = DecoderSlots(count: workers, config: config)
        while true {
            var batch: [ImageWalker.Entry] = []
            while batch.count < workers * batchPerWorker, let entry = walker.next() { batch.append(entry) }
            if batch.isEmpty { return }
            let results = ResultSlots(count: batch.count)
            let entries = batch
            // Each worker takes the next image as it finishes one, so a slow image (retries)
            // does not leave the other threads idle.
            DispatchQueue.concurrentPerform(iterations: min(workers, entries.count)) { worker in
                while let index = results.claim() {
                    results.set(index, decoders.decode(entries[index], worker: worker, limits: limits))
                }
            }
            results.all.forEach(body)
        }
    }
}

/// One decoder per worker, made on first use; worker `n` only ever touches slot `n`, and the
/// array of slots itself never changes.
private final class DecoderSlots: @unchecked Sendable {
    private final class Slot {
        var decoder: Result<BarcodeDecoder, DecoderError>?
    }

    private let slots: [Slot]
    private let config: DecoderConfig

    init(count: Int, config: DecoderConfig) {
        slots = (0..<count).map { _ in Slot() }
        self.config = config
    }

    func decode(_ entry: ImageWalker.Entry, worker: Int, limits: ImageLimits) -> ImageDecodeResult {
        switch entry {
        case .failed(let error):
            return ImageDecodeResult(path: error.path, outcome: .failure(error))
        case .file(let path):
            let slot = slots[worker]
            if slot.decoder == nil {
                do throws(DecoderError) { slot.decoder = .success(try BarcodeDecoder(config: config)) } catch { slot.decoder = .failure(error) }
            }
            switch slot.decoder {
            case .success(let decoder):
                do throws(ImageError) {
                    return ImageDecodeResult(path: path, outcome: .success(decoder.decode(try ImageLoader.load(path: path, limits: limits))))
                } catch {
                    return ImageDecodeResult(path: path, outcome: .failure(error))
                }
            case .failure(let error):
                return ImageDecodeResult(path: path, outcome: .failure(.decoderUnavailable(path: path, reason: error.localizedDescription)))
            case nil:
                return ImageDecodeResult(path: path, outcome: .failure(.decoderUnavailable(path: path, reason: "no decoder")))
            }
        }
    }
}

/// The results of one batch; each index is claimed and written by exactly one worker, then
/// read after all finish.
private final class ResultSlots: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<ImageDecodeResult?>
    private let lock = NSLock()
    private var next = 0

    /// The next index no worker has taken, or nil when all are taken.
    func claim() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < slots.count else { return nil }
        next += 1
        return next - 1
    }

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
    }

    func set(_ index: Int, _ result: ImageDecodeResult) { slots[index] = result }

    var all: [ImageDecodeResult] { slots.compactMap { $0 } }
}
