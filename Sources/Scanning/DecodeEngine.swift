/// A barcode-reading library the decoder can run. Raw values are the names used in the
/// configuration (`"decoder": {"engines": ["zxing", "zbar"]}`) and in `decode --json`.
public enum DecodeEngine: String, Sendable, Codable, CaseIterable, Comparable {
    /// zxing-cpp: QR, DataMatrix and every linear symbology; reads small and damaged codes.
    case zxing
    /// zbar: QR and linear symbologies; fast on frames with no code.
    case zbar

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let value = DecodeEngine(rawValue: name.lowercased()) else {
            let known = DecodeEngine.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "unknown decoding engine \"\(name)\"; use one of: \(known)")
        }
        self = value
    }

    public static func < (lhs: DecodeEngine, rhs: DecodeEngine) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How GS1 data (GS1-128, GS1 DataMatrix, GS1 QR) is turned into text.
public enum GS1Text: String, Sendable, Codable, CaseIterable {
    /// As printed under the code: each application identifier in parentheses, `(01)…(10)…`.
    case parentheses
    /// The data as encoded, with each FNC1 separator as the GS character `\u{1D}`.
    case fnc1
}
