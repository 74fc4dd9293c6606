import CZXing

extension Symbology {
    /// zxing-cpp's format bit. UPC-A and UPC-E are always asked for with EAN-13, since zbar
    /// reads those as EAN-13 when they are off; `BarcodeDecoder` reports them the way zbar would.
    var zxingFormat: UInt32 {
        switch self {
        case .qrcode: UInt32(CZX_QRCODE)
        case .datamatrix: UInt32(CZX_DATAMATRIX)
        case .code128: UInt32(CZX_CODE128)
        case .code39: UInt32(CZX_CODE39)
        case .code93: UInt32(CZX_CODE93)
        case .ean13: UInt32(CZX_EAN13 | CZX_UPCA)
        case .ean8: UInt32(CZX_EAN8)
        case .upca: UInt32(CZX_UPCA)
        case .upce: UInt32(CZX_UPCE)
        case .i25: UInt32(CZX_ITF)
        case .codabar: UInt32(CZX_CODABAR)
        case .databar: UInt32(CZX_DATABAR)
        case .databarExpanded: UInt32(CZX_DATABAR_EXPANDED)
        }
    }

    init?(zxingFormat: UInt32) {
        let exact: [UInt32: Symbology] = [
            UInt32(CZX_QRCODE): .qrcode, UInt32(CZX_DATAMATRIX): .datamatrix, UInt32(CZX_CODE128): .code128,
            UInt32(CZX_CODE39): .code39, UInt32(CZX_CODE93): .code93, UInt32(CZX_EAN13): .ean13,
            UInt32(CZX_EAN8): .ean8, UInt32(CZX_UPCA): .upca, UInt32(CZX_UPCE): .upce, UInt32(CZX_ITF): .i25,
            UInt32(CZX_CODABAR): .codabar, UInt32(CZX_DATABAR): .databar, UInt32(CZX_DATABAR_EXPANDED): .databarExpanded
        ]
        guard let match = exact[zxingFormat] else { return nil }
        self = match
    }

    /// Symbologies whose reads can pass their checks and still be wrong: one engine's single
    /// reading of a still image is not enough to accept them. EAN/UPC have one check digit that
    /// a misread digit pair passes; ITF and Codabar none; DataBar's small checksum passes on
    /// printed text, edges and noise on a photo with no code at all.
    var needsSecondReading: Bool {
        switch self {
        case .ean13, .ean8, .upca, .upce, .i25, .codabar, .databar, .databarExpanded: true
        default: false
        }
    }

    /// A read a partial scan line across a longer code can produce: EAN-8 and UPC-E out of an
    /// EAN-13 or UPC-A, ITF and Codabar of any length. A camera held still repeats such a
    /// misread in every frame, so frames alike do not confirm it (`decodeFrame`).
    var canBePartOfLongerCode: Bool {
        switch self {
        case .ean8, .upce, .i25, .codabar: true
        default: false
        }
    }
}
