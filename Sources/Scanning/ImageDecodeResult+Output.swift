import Foundation

/// The two output forms of `audit-station decode`.
extension ImageDecodeResult {
    private struct JSONLine: Encodable {
        struct Code: Encodable {
            var text: String
            var symbology: String
            var points: [CodePoint]
            var engines: [String]
        }
        var file: String
        var codes: [Code]
        var error: String?
    }

    /// One JSON object on one line: `{"codes": [{"engines", "points", "symbology", "text"}], "file"}`,
    /// with `codes` empty when nothing was found and an `error` string when the file failed.
    public func jsonLine() -> String {
        var line = JSONLine(file: path, codes: [])
        switch outcome {
        case .success(let codes):
            line.codes = codes.map {
                .init(
                    text: $0.text, symbology: $0.symbology.rawValue, points: $0.points,
                    engines: $0.engines.map(\.rawValue))
            }
        case .failure(let error):
            line.error = error.localizedDescription
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(line) else { return #"{"error": "cannot encode the result"}"# }
        return String(decoding: data, as: UTF8.self)
    }

    /// Human-readable lines, zbarimg style: `PATH: SYMBOLOGY: TEXT` per code, or
    /// `PATH: no code found`. Control characters in the text are shown escaped.
    public func textLines() -> [String] {
        switch outcome {
        case .success(let codes) where codes.isEmpty:
            return ["\(path): no code found"]
        case .success(let codes):
            return codes.map { "\(path): \($0.symbology.displayName): \(Self.printable($0.text))" }
        case .failure(let error):
            return [error.localizedDescription]
        }
    }

    private static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                out += scalar.value < 0x100 ? String(format: "\\x%02X", scalar.value) : String(format: "\\u{%X}", scalar.value)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
