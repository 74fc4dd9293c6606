import Foundation

/// Reads codes from a camera until cancelled.
///
/// Two threads of its own do the work, so neither blocks Swift's concurrency pool: the
/// capture thread takes frames from the camera and leaves only the newest in a one-frame
/// slot; the decode thread takes it, decodes it and de-duplicates the codes
/// (`DedupFilter`). When the camera is missing, busy, unplugged or stalls, the capture thread
/// reports it, waits with exponential backoff and reopens it; the loop never ends on a
/// camera fault, only when its task is cancelled.
///
/// ```swift
/// let loop = try ScanLoop(config: station.camera, decoderConfig: station.decoder)
/// try await loop.run(onCode: { code in await record(code) }, onEvent: { print($0) })
/// ```
public final class ScanLoop: Sendable {
    /// Decodes one frame; made and used on the decode thread only.
    typealias Decode = (GrayImage) -> [DecodedCode]

    public let config: CameraConfig
    private let makeSource: @Sendable () -> any FrameSource
    private let makeDecoder: @Sendable () throws -> Decode
    private let slot = ScanLoopFrameSlot()
    /// The frames and code outlines for a live preview (the kiosk's).
    public let preview = PreviewTap()

    /// A loop over the V4L2 camera of `config`, decoding with the configured engines (zxing-cpp
    /// and zbar by default, so Data Matrix too). Frames get the decoder's first pass and a
    /// second reading of weak one-engine reads (`decodeFrame`) unless `config.decodeRetry` is set. zbar's own symbol cache stays off
    /// (with its test-inverted option it breaks duplicate suppression on video); repeats are
    /// suppressed here by `DedupFilter` instead.
    public convenience init(config: CameraConfig, decoderConfig: DecoderConfig) throws {
        try config.validate()
        try decoderConfig.validate()
        let retry = config.decodeRetry
        self.init(
            config: config, makeSource: { V4L2Camera(config: config) },
            makeDecoder: {
                let decoder = try BarcodeDecoder(config: decoderConfig)
                return retry ? { decoder.decode($0) } : { decoder.decodeFrame($0) }
            })
    }

    /// A loop over any frame source and decoder (tests use stand-ins).
    init(
        config: CameraConfig, makeSource: @escaping @Sendable () -> any FrameSource,
        makeDecoder: @escaping @Sendable () throws -> Decode
    ) {
        self.config = config
        self.makeSource = makeSource
        self.makeDecoder = makeDecoder
    }

    /// Counters since the loop was created.
    public var statistics: ScanLoopStatistics { slot.snapshot }

    /// Runs until the calling task is cancelled. `onCode` is awaited for each accepted code
    /// in order (codes accepted meanwhile wait their turn; those still waiting when the run is
    /// cancelled are dropped); `onEvent` reports the
    /// camera's state. Throws only when the decoder cannot be created. Runs may follow one
    /// another (statistics add up), but not overlap.
    public func run(
        onCode: @escaping @Sendable (AcceptedCode) async -> Void,
        onEvent: @escaping @Sendable (CameraEvent) -> Void
    ) async throws {
        let (outputs, continuation) = AsyncStream<ScanLoopWorker.Output>.makeStream()
        let waker = try CameraWaker()
        slot.reopen()
        let worker = ScanLoopWorker(config: config, slot: slot, waker: waker, preview: preview, emit: { continuation.yield($0) })
        let finished = DispatchGroup()
        finished.enter()
        let source = makeSource
        Thread.detachNewThread { [worker] in
            worker.capture(from: source())
            finished.leave()
        }
        finished.enter()
        let decoder = makeDecoder
        Thread.detachNewThread { [worker] in
            worker.decode(with: decoder)
            finished.leave()
        }
        let stop: @Sendable () -> Void = {
            waker.stop()
            self.slot.close()
            continuation.finish()
        }
        var failure: (any Error)?
        await withTaskCancellationHandler {
            for await output in outputs {
                switch output {
                case .code(let code): await onCode(code)
                case .event(let event): onEvent(event)
                case .failed(let error):
                    failure = error
                    stop()
                }
            }
        } onCancel: {
            stop()
        }
        stop()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            finished.notify(queue: .global()) { done.resume() }
        }
        if let failure { throw failure }
    }
}
