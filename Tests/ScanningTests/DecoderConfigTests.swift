import Foundation
import Scanning
import Testing

struct DecoderConfigTests {
    private func decode(_ json: String) throws -> DecoderConfig {
        try JSONDecoder().decode(DecoderConfig.self, from: Data(json.utf8))
    }

    @Test("an empty object gives the defaults: QR, Data Matrix, Code 128, Code 39 and EAN/UPC")
    func emptyObjectIsDefault() throws {
        let config = try decode("{}")
        #expect(config == DecoderConfig())
        #expect(config.symbologies == [.qrcode, .datamatrix, .code128, .code39, .ean13, .ean8, .upca, .upce])
        #expect(config.retry)
    }

    @Test("given keys override, the others keep their defaults")
    func partialObject() throws {
        let config = try decode(#"{"symbologies": ["qrcode", "CODE128"], "density": 1, "retryPasses": ["invert"]}"#)
        #expect(config.symbologies == [.qrcode, .code128])
        #expect(config.density == 1)
        #expect(config.retryPasses == [.inverted])
        #expect(config.minLinearQuality == DecoderConfig().minLinearQuality)
        #expect(config.zbarRegions)
        #expect(try decode(#"{"zbarRegions": false}"#).zbarRegions == false)
    }

    @Test("an unknown symbology names the ones that exist")
    func unknownSymbology() {
        do {
            _ = try decode(#"{"symbologies": ["qr"]}"#)
            Issue.record("accepted an unknown symbology")
        } catch {
            #expect(String(describing: error).contains(#"unknown symbology "qr"; use one of: qrcode, datamatrix, code128"#))
        }
    }

    @Test("a decoder refuses a config that could never read anything or is out of range")
    func invalidConfigs() {
        #expect(throws: DecoderError.noSymbologies) { try BarcodeDecoder(config: DecoderConfig(symbologies: [])) }
        #expect(throws: DecoderError.self) { try BarcodeDecoder(config: DecoderConfig(density: 0)) }
    }

    @Test("the config survives a JSON round trip")
    func roundTrip() throws {
        let config = DecoderConfig(symbologies: [.code39], density: 3, retry: false, minLinearQuality: 5)
        let json = try JSONEncoder().encode(config)
        #expect(try JSONDecoder().decode(DecoderConfig.self, from: json) == config)
    }
}
