import CZBar

/// A symbol as zbar reported it, before text conversion and filtering.
struct RawSymbol: Equatable {
    var symbology: Symbology
    var bytes: [UInt8]
    var points: [CodePoint]
    var quality: Int
    /// The symbol began with FNC1: GS1 data, later FNC1s as the GS character 0x1D.
    var isGS1 = false
}

/// Owns one `zbar_image_scanner_t`. Not thread-safe: one per thread or task.
final class ZBarScanner {
    private let scanner: OpaquePointer // zbar_image_scanner_t *
    /// Rows and columns between scan lines (`DecoderConfig.density`).
    let density: Int

    init(config: DecoderConfig) throws(DecoderError) {
        guard let scanner = zbar_image_scanner_create() else {
            throw .zbarFailure("zbar_image_scanner_create returned no scanner")
        }
        self.scanner = scanner
        self.density = config.density
        try set(ZBAR_NONE, ZBAR_CFG_ENABLE, 0)
        for type in Set(config.symbologies).compactMap(\.zbarType) {
            try set(type, ZBAR_CFG_ENABLE, 1)
        }
        if config.symbologies.contains(.qrcode) {
            // Raw bytes: our code turns them into text (see QRText).
            try set(ZBAR_QRCODE, ZBAR_CFG_BINARY, 1)
        }
        try set(ZBAR_NONE, ZBAR_CFG_X_DENSITY, Int32(config.density))
        try set(ZBAR_NONE, ZBAR_CFG_Y_DENSITY, Int32(config.density))
        try set(ZBAR_NONE, ZBAR_CFG_POSITION, 1)
    }

    deinit { zbar_image_scanner_destroy(scanner) }

    private func set(_ type: zbar_symbol_type_t, _ option: zbar_config_t, _ value: Int32) throws(DecoderError) {
        if zbar_image_scanner_set_config(scanner, type, option, value) != 0 {
            throw .zbarFailure("zbar_image_scanner_set_config(\(type.rawValue), \(option.rawValue), \(value)) failed")
        }
    }

    /// Scans one image and returns every symbol zbar found (empty on a zbar error).
    func scan(_ image: GrayImage) -> [RawSymbol] {
        scan(image, regions: [PixelRect(x: 0, y: 0, width: image.width, height: image.height)])
    }

    /// Scans the whole image with the vertical scan lines `columnDensity` columns apart (the
    /// horizontal ones stay `density` rows apart).
    func scan(_ image: GrayImage, columnDensity: Int) -> [RawSymbol] {
        guard columnDensity != density else { return scan(image) }
        zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, Int32(columnDensity))
        defer { zbar_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, Int32(density)) }
        return scan(image)
    }

    /// Scans only the given rectangles of the image (zbar's crop), each on its own; points are
    /// in the whole image's coordinates.
    func scan(_ image: GrayImage, regions: [PixelRect]) -> [RawSymbol] {
        guard image.width > 0, image.height > 0, let zimage = zbar_image_create() else { return [] }
        defer { zbar_image_destroy(zimage) }
        zbar_image_set_format(zimage, czbar_fourcc_y800())
        zbar_image_set_size(zimage, UInt32(image.width), UInt32(image.height))
        return image.pixels.withUnsafeBufferPointer { buffer -> [RawSymbol] in
            // No cleanup handler: zbar borrows the buffer only for the duration of this call.
            zbar_image_set_data(zimage, buffer.baseAddress, UInt(buffer.count), nil)
            var symbols: [RawSymbol] = []
            for region in regions {
                let earlier = symbols.count
                let x = max(0, min(region.x, image.width)), y = max(0, min(region.y, image.height))
                let width = min(region.width, image.width - x), height = min(region.height, image.height - y)
                guard width > 0, height > 0 else { continue }
                zbar_image_set_crop(zimage, UInt32(x), UInt32(y), UInt32(width), UInt32(height))
                guard zbar_scan_image(scanner, zimage) > 0 else { continue }
                var symbol = zbar_image_first_symbol(zimage)
                while let current = symbol {
                    // A code inside two overlapping regions is one reading, not two (two alike
                    // codes inside one region stay two, as in a whole-image scan).
                    if let raw = Self.rawSymbol(current),
                        !symbols[..<earlier].contains(where: { $0.symbology == raw.symbology && $0.bytes == raw.bytes })
                    {
                        symbols.append(raw)
                    }
                    symbol = zbar_symbol_next(current)
                }
            }
            return symbols
        }
    }

    private static func rawSymbol(_ symbol: OpaquePointer) -> RawSymbol? {
        guard let symbology = Symbology(zbarType: zbar_symbol_get_type(symbol)) else { return nil }
        let length = Int(zbar_symbol_get_data_length(symbol))
        var bytes: [UInt8] = []
        if length > 0, let data = zbar_symbol_get_data(symbol) {
            bytes = Array(UnsafeRawBufferPointer(start: data, count: length))
        }
        let count = zbar_symbol_get_loc_size(symbol)
        var points: [CodePoint] = []
        points.reserveCapacity(Int(count))
        for index in 0..<count {
            points.append(
                CodePoint(
                    x: Int(zbar_symbol_get_loc_x(symbol, index)),
                    y: Int(zbar_symbol_get_loc_y(symbol, index))))
        }
        let gs1 = zbar_symbol_get_modifiers(symbol) & (1 << ZBAR_MOD_GS1.rawValue) != 0
        return RawSymbol(
            symbology: symbology, bytes: bytes, points: points,
            quality: Int(zbar_symbol_get_quality(symbol)), isGS1: gs1)
    }
}
