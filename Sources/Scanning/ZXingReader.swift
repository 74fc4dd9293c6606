import CZXing

/// Owns one zxing-cpp reader (through the `CZXing` shim). Not thread-safe: one per thread or task.
///
/// zxing-cpp's own downscaling stays off (Debian's build can abort inside its downscale
/// pyramid), and so does its rotation unless asked for; `BarcodeDecoder` scales, rotates and
/// inverts the image itself.
final class ZXingReader {
    private let reader: OpaquePointer // czx_reader *

    /// Images smaller than this on a side are not passed in: they cannot hold a code, and
    /// zxing-cpp's detectors assume a few pixels of room.
    static let minSide = 8
    static let maxSide = Int(CZX_MAX_SIDE)

    /// `rotate`: zxing-cpp's try-rotate, which makes its Data Matrix detector look along the
    /// middle lines from all four sides (a label turned 90° or 180°) and its linear readers
    /// read the image turned 90° too (twice their work). `ownBinarizer`: QR and Data Matrix
    /// read zxing-cpp's own black-and-white image rather than the shim's faster copy of it
    /// (`czx_binarize`, the same bits; for the tests that check so).
    init(symbologies: [Symbology], rotate: Bool = false, ownBinarizer: Bool = false) throws(DecoderError) {
        let formats = symbologies.reduce(UInt32(0)) { $0 | $1.zxingFormat }
        guard formats != 0 else { throw .noSymbologies }
        let flags = (rotate ? Int32(CZX_TRY_ROTATE) : 0) | (ownBinarizer ? Int32(CZX_OWN_BINARIZER) : 0)
        guard let reader = czx_reader_create(formats, flags) else {
            throw .zxingFailure("czx_reader_create refused formats \(formats) or ran out of memory")
        }
        self.reader = reader
    }

    deinit { czx_reader_destroy(reader) }

    /// Every code zxing-cpp finds in the image; an image it cannot take is an error, never a crash.
    func scan(_ image: GrayImage) -> Result<[ZXingSymbol], DecoderError> {
        guard (Self.minSide...Self.maxSide).contains(image.width), (Self.minSide...Self.maxSide).contains(image.height),
            image.pixels.count == image.width * image.height
        else {
            return .failure(.zxingFailure("image of \(image.width)×\(image.height) is outside \(Self.minSide)…\(Self.maxSide) pixels a side"))
        }
        var results: OpaquePointer?
        var message = [CChar](repeating: 0, count: 256)
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            czx_read(
                reader, pixels.baseAddress, pixels.count, Int32(image.width), Int32(image.height),
                &results, &message, message.count)
        }
        guard status == Int32(CZX_OK), let results else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(.zxingFailure("zxing-cpp could not read the image (\(status)): \(reason)"))
        }
        defer { czx_results_destroy(results) }
        return .success((0..<czx_results_count(results)).compactMap { Self.symbol(results, $0) })
    }

    /// The black-and-white image (0 black, 255 white) QR and Data Matrix are read from, as
    /// the shim makes it (`czx_binarize`); nil under 40 pixels a side.
    static func binarized(_ image: GrayImage) -> GrayImage? {
        guard image.pixels.count == image.width * image.height else { return nil }
        var done = false
        let bits = image.pixels.withUnsafeBufferPointer { pixels in
            [UInt8](unsafeUninitializedCapacity: pixels.count) { out, count in
                done = czx_binarize(pixels.baseAddress, Int32(image.width), Int32(image.height), out.baseAddress) == 0
                count = done ? pixels.count : 0
            }
        }
        return done ? GrayImage(width: image.width, height: image.height, pixels: bits) : nil
    }

    private static func symbol(_ results: OpaquePointer, _ index: Int32) -> ZXingSymbol? {
        guard let symbology = Symbology(zxingFormat: czx_result_format(results, index)) else { return nil }
        var corners = [Int32](repeating: 0, count: 8)
        czx_result_corners(results, index, &corners)
        let points = (0..<4).map { CodePoint(x: Int(corners[2 * $0]), y: Int(corners[2 * $0 + 1])) }
        return ZXingSymbol(
            symbology: symbology, bytes: bytes(czx_result_bytes, results, index),
            text: string(czx_result_text, results, index), gs1: string(czx_result_gs1, results, index),
            hasECI: czx_result_has_eci(results, index) != 0, points: points,
            lineCount: Int(czx_result_line_count(results, index)))
    }

    private static func bytes(
        _ get: (OpaquePointer?, Int32, UnsafeMutablePointer<Int>?) -> UnsafePointer<UInt8>?,
        _ results: OpaquePointer, _ index: Int32
    ) -> [UInt8] {
        var length = 0
        guard let data = get(results, index, &length), length > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: length))
    }

    private static func string(
        _ get: (OpaquePointer?, Int32, UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>?,
        _ results: OpaquePointer, _ index: Int32
    ) -> String {
        var length = 0
        guard let data = get(results, index, &length), length > 0 else { return "" }
        return data.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}

/// A symbol as zxing-cpp reported it, before our text rules and filtering.
struct ZXingSymbol: Equatable {
    var symbology: Symbology
    /// The content bytes before any character set was applied.
    var bytes: [UInt8]
    /// zxing-cpp's UTF-8 rendering (ECI honoured, FNC1 as GS).
    var text: String
    /// The `(01)…` form when the content is GS1, otherwise empty.
    var gs1: String
    var hasECI: Bool
    var points: [CodePoint]
    var lineCount: Int
}
