import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Scanning

/// The camera preview as MJPEG (`multipart/x-mixed-replace`), made from the frames the scan
/// loop already captures. Frames are encoded only while a page watches, at most `fps` a
/// second, once per frame however many pages watch, on the page's task rather than the
/// capture or decode threads, so decoding never waits for the preview.
final class PreviewStream: Sendable {
    static let boundary = "auditstation-frame"
    let tap: PreviewTap
    let fps: Int
    let maxViewers: Int
    private let encoded = NIOLockedValueBox<(sequence: UInt64, jpeg: ByteBuffer?)>((0, nil))
    private let encoder = NIOLockedValueBox<JPEGEncoder?>(nil)
    private let viewers = NIOLockedValueBox(0)
    private let stopped = NIOLockedValueBox(false)

    init(tap: PreviewTap, fps: Int = 15, maxViewers: Int = 8) {
        self.tap = tap
        self.fps = max(1, min(fps, 30))
        self.maxViewers = maxViewers
    }

    /// Claims a viewer slot; false when `maxViewers` pages already watch.
    func claim() -> Bool {
        viewers.withLockedValue { count in
            guard count < maxViewers else { return false }
            count += 1
            return true
        }
    }

    func release() { viewers.withLockedValue { $0 = max(0, $0 - 1) } }

    /// Ends every stream (the kiosk is shutting down).
    func stop() { stopped.withLockedValue { $0 = true } }

    /// Writes parts until the page goes (the write fails) or the task is cancelled. When no
    /// new frame comes (camera lost), the last one is sent again every 2 s so that a page that
    /// left is noticed.
    func stream(to write: (ByteBuffer) async throws -> Void) async throws {
        tap.startWatching()
        defer { tap.stopWatching() }
        let interval = Duration.milliseconds(1000 / fps)
        var sent: UInt64 = 0
        var lastWrite = ContinuousClock.now
        var last: ByteBuffer?
        while !Task.isCancelled && !stopped.withLockedValue({ $0 }) {
            let started = ContinuousClock.now
            if let (image, sequence) = tap.newest(after: sent), let jpeg = jpeg(image, sequence: sequence) {
                sent = sequence
                last = jpeg
                try await write(Self.part(jpeg))
                lastWrite = .now
            } else if let last, ContinuousClock.now - lastWrite > .seconds(2) {
                try await write(Self.part(last))
                lastWrite = .now
            }
            let elapsed = ContinuousClock.now - started
            try await Task.sleep(for: elapsed < interval ? interval - elapsed : .milliseconds(5))
        }
    }

    /// The JPEG of frame `sequence`, encoded once for every page.
    private func jpeg(_ image: GrayImage, sequence: UInt64) -> ByteBuffer? {
        if let cached = encoded.withLockedValue({ $0.sequence == sequence ? $0.jpeg : nil }) { return cached }
        let bytes: [UInt8]? = encoder.withLockedValue { encoder in
            if encoder == nil { encoder = JPEGEncoder() }
            return encoder?.encode(image, quality: 70)
        }
        guard let bytes else { return nil }
        let buffer = ByteBuffer(bytes: bytes)
        encoded.withLockedValue { $0 = (sequence, buffer) }
        return buffer
    }

    static func part(_ jpeg: ByteBuffer) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeString("--\(boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.readableBytes)\r\n\r\n")
        buffer.writeImmutableBuffer(jpeg)
        buffer.writeString("\r\n")
        return buffer
    }
}
