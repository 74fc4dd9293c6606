import CZBar

/// A barcode symbology that the decoder can read. The raw values are the names used in the
/// station configuration (`"decoder": {"symbologies": [...]}`) and in `--json` output.
public enum Symbology: String, Sendable, Codable, CaseIterable {
    case qrcode
    /// Data Matrix (ECC 200); read by the zxing engine only.
    case datamatrix
    case code128
    case code39
    case code93
    case ean13
    case ean8
    case upca
    case upce
    /// Interleaved 2 of 5 (ITF).
    case i25
    case codabar
    /// GS1 DataBar (RSS-14).
    case databar
    /// GS1 DataBar Expanded.
    case databarExpanded = "databar-exp"

    /// What asset tags use: QR, Data Matrix, Code 128, Code 39 and EAN/UPC.
    public static let assetTagDefaults: [Symbology] = [.qrcode, .datamatrix, .code128, .code39, .ean13, .ean8, .upca, .upce]

    /// A human name, as printed by `decode` without `--json`.
    public var displayName: String {
        switch self {
        case .qrcode: "QR Code"
        case .datamatrix: "Data Matrix"
        case .code128: "Code 128"
        case .code39: "Code 39"
        case .code93: "Code 93"
        case .ean13: "EAN-13"
        case .ean8: "EAN-8"
        case .upca: "UPC-A"
        case .upce: "UPC-E"
        case .i25: "Interleaved 2 of 5"
        case .codabar: "Codabar"
        case .databar: "GS1 DataBar"
        case .databarExpanded: "GS1 DataBar Expanded"
        }
    }

    /// True for linear codes whose structure carries no mandatory check character, so a
    /// single damaged scan line can produce a wrong but well-formed read.
    var isWeaklyChecked: Bool {
        switch self {
        case .code39, .codabar, .i25, .upce: true
        default: false
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let value = Symbology(rawValue: name.lowercased()) else {
            let known = Symbology.allCases.map(\.rawValue).joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "unknown symbology \"\(name)\"; use one of: \(known)")
        }
        self = value
    }
}

extension Symbology {
    /// zbar's type, or nil for a symbology zbar cannot read.
    var zbarType: zbar_symbol_type_t? {
        switch self {
        case .datamatrix: nil
        case .qrcode: ZBAR_QRCODE
        case .code128: ZBAR_CODE128
        case .code39: ZBAR_CODE39
        case .code93: ZBAR_CODE93
        case .ean13: ZBAR_EAN13
        case .ean8: ZBAR_EAN8
        case .upca: ZBAR_UPCA
        case .upce: ZBAR_UPCE
        case .i25: ZBAR_I25
        case .codabar: ZBAR_CODABAR
        case .databar: ZBAR_DATABAR
        case .databarExpanded: ZBAR_DATABAR_EXP
        }
    }

    init?(zbarType: zbar_symbol_type_t) {
        guard let match = Symbology.allCases.first(where: { $0.zbarType == zbarType }) else { return nil }
        self = match
    }
}
