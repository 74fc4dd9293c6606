import Foundation
import Testing
@testable import Scanning

struct CameraConfigTests {
    func decode(_ json: String) throws -> CameraConfig {
        try JSONDecoder().decode(CameraConfig.self, from: Data(json.utf8))
    }

    @Test func emptyObjectGivesTheDefaults() throws {
        let config = try decode("{}")
        #expect(config == CameraConfig())
        #expect(config.device == "/dev/video0" && config.width == 1280 && config.height == 720)
        #expect(config.confirmSymbologies.contains(.ean13) && !config.confirmSymbologies.contains(.qrcode))
        try config.validate()
    }

    @Test func givenKeysOverrideOnlyThemselves() throws {
        let config = try decode(#"{"device": "/dev/video2", "goneAfterSeconds": 5, "controls": {"focusAuto": false}}"#)
        #expect(config.device == "/dev/video2" && config.goneAfterSeconds == 5)
        #expect(config.controls == CameraControls(focusAuto: false))
        #expect(config.fps == 30 && config.confirmFrames == 3)
    }

    @Test func roundTripsThroughJSON() throws {
        let config = CameraConfig(device: "/dev/video3", fps: 15, controls: CameraControls(exposureAuto: 1, exposureAbsolute: 90))
        #expect(try decode(String(decoding: JSONEncoder().encode(config), as: UTF8.self)) == config)
    }

    @Test func unknownSymbologyIsNamed() {
        #expect(throws: DecodingError.self) { try decode(#"{"confirmSymbologies": ["ean14"]}"#) }
    }

    @Test(arguments: [
        (#"{"width": 0}"#, "camera.width"),
        (#"{"fps": 1000}"#, "camera.fps"),
        (#"{"pixelFormats": ["MJPEG"]}"#, "four-letter"),
        (#"{"confirmFrames": 0}"#, "camera.confirmFrames"),
        (#"{"selectTimeoutSeconds": 0}"#, "selectTimeoutSeconds"),
        (#"{"reconnectInitialSeconds": 10, "reconnectMaxSeconds": 1}"#, "reconnectInitialSeconds"),
        (#"{"buffers": 1}"#, "camera.buffers"),
        (#"{"device": ""}"#, "camera.device")
    ])
    func outOfRangeValuesAreRefusedWithTheKeyNamed(json: String, key: String) throws {
        let config = try decode(json)
        do {
            try config.validate()
            Issue.record("\(json) was accepted")
        } catch {
            #expect(error.localizedDescription.contains(key))
        }
    }

    @Test func controlsAreSetModesFirst() {
        let controls = CameraControls(focusAuto: false, focusAbsolute: 30, exposureAuto: 1, exposureAbsolute: 200)
        #expect(controls.settings.map(\.name) == ["focusAuto", "focusAbsolute", "exposureAuto", "exposureAbsolute"])
        #expect(controls.settings.map(\.value) == [0, 30, 1, 200])
    }
}
