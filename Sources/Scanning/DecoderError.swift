import Foundation

/// Why a `BarcodeDecoder` could not be set up.
public enum DecoderError: Error, LocalizedError, Sendable, Equatable {
    /// The configuration enables no symbology, so nothing could ever be read.
    case noSymbologies
    /// A configuration value is out of range; the text names it.
    case invalidSetting(String)
    /// zbar could not create a scanner or accept a setting (usually out of memory).
    case zbarFailure(String)
    /// zxing-cpp could not create a reader, or refused or failed on one image.
    case zxingFailure(String)

    public var errorDescription: String? {
        switch self {
        case .noSymbologies:
            "the decoder configuration enables no symbologies; list at least one in \"symbologies\""
        case .invalidSetting(let detail):
            "invalid decoder setting: \(detail)"
        case .zbarFailure(let detail):
            "the zbar barcode library failed: \(detail)"
        case .zxingFailure(let detail):
            "the zxing-cpp barcode library failed: \(detail)"
        }
    }
}
