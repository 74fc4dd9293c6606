import AuditAPI
import Foundation
import InventoryCore
import NIOPosix
import Scanning
import Synchronization

/// Reads the codes in the frames that phones send (`POST /api/v1/decode`) with the station's
/// decoder and the server's decoder configuration: both engines, the text rules and the misread
/// guards of `BarcodeDecoder.decodeFrame`, the camera's first pass within its frame budget (no
/// photo retries: the phone sends the next frame in 200 ms).
///
/// The work runs on NIO's thread pool (one thread per core), never on the concurrency pool:
/// a frame costs milliseconds of CPU. Each thread takes a decoder from a shelf and puts it back,
/// so zbar's and zxing's readers are made once per thread, not once per frame. The frame is
/// read in memory and dropped: nothing of it is stored.
final class FrameDecoder: @unchecked Sendable {
    /// The body types the call takes.
    static let contentTypes = ["image/jpeg", "image/png"]
    /// 12 MP: a phone's full-resolution photo; the page sends frames of at most 1280 px wide.
    static let maxPixels = 12_000_000

    let config: DecoderConfig
    private let shelf = NSLock()
    private var decoders: [BarcodeDecoder] = []
    private let figures = Mutex(DecodeFigures())

    init(config: DecoderConfig) { self.config = config }

    /// The codes of one JPEG or PNG frame. An image that cannot be read is a 413 (too large)
    /// or a 422 that says what is wrong with it.
    func codes(in frame: [UInt8]) async throws -> [FrameCode] {
        guard frame.starts(with: [0xFF, 0xD8, 0xFF]) || frame.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            refused()
            throw InventoryError.invalid(ValidationError(field: "image", message: "is not a JPEG or PNG image"))
        }
        // A frame is sized by the page that sends it: one over the limit is refused, not read reduced.
        let limits = ImageLimits(maxFileBytes: BodyLimits.frame, maxPixels: Self.maxPixels, maxReduction: 1)
        let started = ContinuousClock.now
        let read: Result<[DecodedCode], ImageError> = try await NIOThreadPool.singleton.runIfActive { [self] in
            let image: GrayImage
            do throws(ImageError) { image = try ImageLoader.decode(frame, path: "frame", limits: limits) } catch { return .failure(error) }
            return .success(try withDecoder { $0.decodeFrame(image) })
        }
        switch read {
        case .success(let codes):
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            figures.withLock {
                $0.frames += 1
                $0.codes += codes.count
                $0.framesWithCodes += codes.isEmpty ? 0 : 1
                $0.decodeSeconds += seconds
            }
            return codes.map { code in
                FrameCode(text: code.text, symbology: code.symbology.rawValue, points: code.points.map { FrameCode.Point(x: $0.x, y: $0.y) })
            }
        case .failure(let error):
            refused()
            throw Self.failure(error)
        }
    }

    /// What the call has done since the server started.
    var counted: DecodeFigures { figures.withLock { $0 } }

    /// A frame refused before it was decoded (also one over the user's rate).
    func refused() { figures.withLock { $0.refused += 1 } }

    private func withDecoder<T>(_ body: (BarcodeDecoder) -> T) throws -> T {
        let decoder: BarcodeDecoder
        if let shelved = shelf.withLock({ decoders.popLast() }) {
            decoder = shelved
        } else {
            do { decoder = try BarcodeDecoder(config: config) } catch {
                throw InventoryError.unavailable("the server's decoder configuration cannot be used: \(error.localizedDescription)")
            }
        }
        defer { shelf.withLock { decoders.append(decoder) } }
        return body(decoder)
    }

    static func failure(_ error: ImageError) -> any Error {
        switch error {
        case .tooManyPixels(_, let width, let height, let limit): return APIFailure.frameTooManyPixels(width: width, height: height, limit: limit)
        case .fileTooLarge(_, _, let limit): return APIFailure.frameTooLarge(limit: limit)
        default: return InventoryError.invalid(ValidationError(field: "image", message: error.localizedDescription))
        }
    }
}
