import Foundation

/// The bodies of the scan loop's two threads. The capture thread owns the frame source,
/// the decode thread owns the decoder and the de-duplication state; they share only the
/// frame slot and the waker.
final class ScanLoopWorker: Sendable {
    enum Output: Sendable {
        case code(AcceptedCode)
        case event(CameraEvent)
        case failed(any Error)
    }

    let config: CameraConfig
    let slot: ScanLoopFrameSlot
    let waker: CameraWaker
    let emit: @Sendable (Output) -> Void
    let preview: PreviewTap

    init(
        config: CameraConfig, slot: ScanLoopFrameSlot, waker: CameraWaker, preview: PreviewTap,
        emit: @escaping @Sendable (Output) -> Void
    ) {
        self.preview = preview
        self.config = config
        self.slot = slot
        self.waker = waker
        self.emit = emit
    }

    /// Opens the source, streams frames into the slot, and on any fault reports it and
    /// reopens after a backoff that doubles up to `reconnectMaxSeconds`.
    func capture(from source: any FrameSource) {
        defer { source.close() }
        var backoff = config.reconnectInitialSeconds
        var wasOpened = false
        var lastError: CameraError?
        while !waker.isStopped {
            do throws(CameraError) {
                let stream = try source.open()
                slot.streamRestarted()
                emit(.event(wasOpened ? .resumed(stream) : .opened(stream)))
                wasOpened = true
                lastError = nil
                backoff = config.reconnectInitialSeconds
                while let frame = try source.nextFrame(waker: waker) {
                    preview.offer(frame.image)
                    slot.put(frame)
                }
                return // woken: the loop is stopping
            } catch {
                source.close()
                if waker.isStopped { return }
                if error != lastError { emit(.event(.lost(error))) }
                lastError = error
                emit(.event(.retrying(after: .milliseconds(Int((backoff * 1000).rounded())))))
                if waker.sleep(seconds: backoff) { return }
                backoff = min(backoff * 2, config.reconnectMaxSeconds)
            }
        }
    }

    /// Decodes the newest frame whenever there is one, and emits the codes that count.
    func decode(with makeDecoder: () throws -> ScanLoop.Decode) {
        let decode: ScanLoop.Decode
        do {
            decode = try makeDecoder()
        } catch {
            emit(.failed(error))
            return
        }
        var filter = DedupFilter(config: config)
        while let frame = slot.take() {
            let started = MonotonicClock.now
            let codes = decode(frame.image)
            preview.report(codes, width: frame.image.width, height: frame.image.height)
            let accepted = filter.process(codes, at: frame.captureTime)
            let now = MonotonicClock.now
            slot.recordDecode(seconds: now - started, accepted: accepted.count)
            let age = max(0, now - frame.captureTime)
            for item in accepted {
                emit(
                    .code(
                        AcceptedCode(
                            text: item.code.text, symbology: item.code.symbology,
                            capturedAt: Date(timeIntervalSinceNow: -age), isReappearance: item.isReappearance,
                            latency: .nanoseconds(Int64(age * 1e9)), frameSequence: frame.sequence, frame: frame.image)))
            }
        }
    }
}
