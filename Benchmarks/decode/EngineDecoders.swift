import Scanning

/// The default decoder (both engines), and the same decoder with zbar alone and with zxing alone.
func engineDecoders() throws -> (both: BarcodeDecoder, zbar: BarcodeDecoder, zxing: BarcodeDecoder) {
    var zbarConfig = DecoderConfig(), zxingConfig = DecoderConfig()
    zbarConfig.engines = [.zbar]
    zxingConfig.engines = [.zxing]
    return (try BarcodeDecoder(), try BarcodeDecoder(config: zbarConfig), try BarcodeDecoder(config: zxingConfig))
}
