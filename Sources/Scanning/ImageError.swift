import Foundation

/// Why an image file could not be turned into a `GrayImage`. Each message names the file.
public enum ImageError: Error, LocalizedError, Sendable, Equatable {
    /// The path could not be opened or read; `reason` is the system's explanation.
    case unreadable(path: String, reason: String)
    /// The path is a folder where a file was expected.
    case isDirectory(path: String)
    /// The file has no bytes at all.
    case empty(path: String)
    /// The file is bigger than the loader accepts.
    case fileTooLarge(path: String, bytes: Int, limit: Int)
    /// The content is not PNG, JPEG, WebP, HEIC, AVIF or PGM/PPM, whatever the file name says.
    case unknownFormat(path: String, detail: String)
    /// A well-known format that is not read here (TIFF, GIF, an animated WebP…), and what to do.
    case formatNotRead(path: String, format: String, advice: String)
    /// The header claims more pixels than the loader accepts (protects memory).
    case tooManyPixels(path: String, width: Int, height: Int, limit: Int)
    /// The file starts like an image of this format but is damaged or cut short.
    case damaged(path: String, format: String, detail: String)
    /// Something about the folder walk itself failed (listing a folder, for instance).
    case decoderUnavailable(path: String, reason: String)

    public var path: String {
        switch self {
        case .unreadable(let path, _), .isDirectory(let path), .empty(let path),
            .fileTooLarge(let path, _, _), .unknownFormat(let path, _), .formatNotRead(let path, _, _),
            .tooManyPixels(let path, _, _, _), .damaged(let path, _, _), .decoderUnavailable(let path, _):
            path
        }
    }

    public var errorDescription: String? {
        switch self {
        case .unreadable(let path, let reason):
            "\(path): cannot read the file: \(reason)"
        case .isDirectory(let path):
            "\(path): is a folder, not an image file"
        case .empty(let path):
            "\(path): the file is empty (0 bytes)"
        case .fileTooLarge(let path, let bytes, let limit):
            "\(path): the file is \(bytes) bytes; images over \(limit) bytes are refused"
        case .unknownFormat(let path, let detail):
            "\(path): not a PNG, JPEG, WebP, HEIC, AVIF or PGM/PPM image (\(detail))"
        case .formatNotRead(let path, let format, let advice):
            "\(path): \(format) files are not read; \(advice)"
        case .tooManyPixels(let path, let width, let height, let limit):
            "\(path): the image claims to be \(width)×\(height) pixels; images over \(limit) pixels are refused"
        case .damaged(let path, let format, let detail):
            "\(path): the \(format) file is damaged or cut short (\(detail))"
        case .decoderUnavailable(let path, let reason):
            "\(path): cannot decode: \(reason)"
        }
    }
}
