import CameraTestSupport
import Foundation
import Testing
import TestKit

extension TimingSensitive {
    /// The scan loop end to end: real libv4l2, real zbar, and the emulated V4L2 device in a
    /// child process. Serialized: they share two cores and a frame rate.
    @Suite
    struct CameraEndToEndTests {
        typealias Code = ProbeOutput.Code

        @Test(arguments: ["GREY", "YUYV", "MJPG"])
        func tagsComingAndGoingYieldExactlyTheExpectedScans(format: String) async throws {
            let camera = try await FakeCamera()
            let empty = try await camera.frame("empty")
            let tagA = try await camera.frame("a", ["--qr", "TAG-A"])
            let both = try await camera.frame("ab", ["--qr", "TAG-A", "--code128", "SN-B123"])
            let ean = try await camera.frame("ean", ["--ean13", "4006381333931"])
            try camera.play(
                [(empty, 8), (tagA, 15), (empty, 2), (both, 15), (empty, 30), (both, 10), (ean, 12)],
                fps: 15, format: format)
            let output = try await camera.probe(config: [
                "goneAfterSeconds": 0.5, "selectTimeoutSeconds": 0.6, "confirmFrames": 3,
                "controls": ["focusAuto": false, "focusAbsolute": 40, "gain": 5]
            ])
            // TAG-A once while it stays (the 2-frame gap is shorter than goneAfter), SN-B123 once,
            // both again after 2 s out of view, and the EAN-13 once it agreed over 3 frames.
            let expected = [
                Code(text: "TAG-A", symbology: "qrcode", reappearance: false),
                Code(text: "SN-B123", symbology: "code128", reappearance: false),
                Code(text: "TAG-A", symbology: "qrcode", reappearance: true),
                Code(text: "SN-B123", symbology: "code128", reappearance: true),
                Code(text: "4006381333931", symbology: "ean13", reappearance: false)
            ]
            #expect(output.codes.first == expected[0])
            #expect(output.codes.sorted { $0.description < $1.description } == expected.sorted { $0.description < $1.description })
            #expect(output.eventKinds.first == "opened")
            #expect(output.events.first?.message.contains("\(format) 640x480") == true)
            #expect(output.stat("framesCaptured") > 80)
        }

        @Test func dataMatrixIsReadFromTheCamera() async throws {
            let camera = try await FakeCamera()
            let empty = try await camera.frame("empty")
            let label = try await camera.frame("dm", ["--datamatrix", "DM-TAG-7"])
            try camera.play([(empty, 5), (label, 15), (empty, 5)], fps: 15)
            let output = try await camera.probe(config: ["selectTimeoutSeconds": 0.6])
            #expect(output.codes == [Code(text: "DM-TAG-7", symbology: "datamatrix", reappearance: false)])
        }

        @Test func configuredControlsReachTheCameraAndMissingOnesAreNamed() async throws {
            let camera = try await FakeCamera()
            try camera.play([(try await camera.frame("empty"), 5)], fps: 30)
            let output = try await camera.probe(config: [
                "selectTimeoutSeconds": 0.3, "controls": ["focusAuto": false, "focusAbsolute": 40, "gain": 5]
            ])
            #expect(camera.deviceLog.contains("control Focus, Automatic Continuous=0"))
            #expect(camera.deviceLog.contains("control Focus, Absolute=40"))
            let opened = try #require(output.events.first { $0.kind == "opened" })
            #expect(opened.message.contains("no gain control"))
            #expect(opened.message.contains("1280x720 not offered; using 640x480"))
        }

        @Test func unplugAndReplugResumesAndKeepsScanning() async throws {
            let camera = try await FakeCamera()
            let empty = try await camera.frame("empty")
            let tagA = try await camera.frame("a", ["--qr", "TAG-A"])
            let tagB = try await camera.frame("b", ["--code128", "SN-B123"])
            try camera.play([(empty, 5), (tagA, 15), (empty, 10), (tagB, 15)], fps: 15)
            camera.environment["FAKEV4L2_VANISH_AFTER"] = "30" // unplugged after the empty frames
            camera.environment["FAKEV4L2_ABSENT_OPENS"] = "2" // and absent for two attempts to open it
            // A frame every 67 ms; 1.5 s without one is a stall even on a machine busy enough to
            // delay a frame by a second (at 0.6 s such a delay was taken for a second unplug).
            let output = try await camera.probe(config: [
                "selectTimeoutSeconds": 1.5, "reconnectInitialSeconds": 0.05, "reconnectMaxSeconds": 0.2
            ])
            #expect(output.codes.map(\.text) == ["TAG-A", "SN-B123"])
            #expect(camera.deviceLog.contains("unplugged"))
            let kinds = output.eventKinds
            #expect(kinds.first == "opened")
            #expect(kinds.filter { $0 == "resumed" }.count == 1)
            let lost = output.events.filter { $0.kind == "lost" }.map(\.message)
            #expect(lost.contains { $0.hasSuffix("\(camera.device) was disconnected") })
            #expect(lost.contains { $0.contains("\(camera.device) not found") })
            #expect(output.stat("opens") == 2)
        }

        @Test func busyCameraIsReportedThenUsed() async throws {
            let camera = try await FakeCamera()
            try camera.play([(try await camera.frame("a", ["--qr", "TAG-A"]), 10)], fps: 30)
            camera.environment["FAKEV4L2_BUSY_OPENS"] = "1"
            let output = try await camera.probe(config: ["selectTimeoutSeconds": 0.3, "reconnectInitialSeconds": 0.05])
            #expect(Array(output.eventKinds.prefix(3)) == ["lost", "retrying", "opened"])
            #expect(output.events.first?.message.contains("is busy") == true)
            #expect(output.codes.map(\.text) == ["TAG-A"])
        }

        @Test func missingCameraIsReportedAndRetried() async throws {
            let camera = try await FakeCamera()
            let output = try await camera.probe(
                config: ["device": "/dev/video-missing", "reconnectInitialSeconds": 0.05],
                seconds: 0.5, exitOnStall: false, preload: false)
            #expect(output.events.first?.kind == "lost")
            #expect(output.events.first?.message.contains("/dev/video-missing not found") == true)
            #expect(output.eventKinds.filter { $0 == "retrying" }.count >= 2)
            #expect(output.eventKinds.filter { $0 == "lost" }.count == 1) // the same fault is not repeated
        }

        @Test func frameRateFasterThanTheDecoderNeverBuildsABacklog() async throws {
            let camera = try await FakeCamera()
            // 1920×1080 at 240 frames a second: more than the decoder takes, even on an idle
            // machine (at 1280×720 it once kept up with every frame).
            let empty = try await camera.frame("empty", width: 1920, height: 1080)
            let tagA = try await camera.frame("a", width: 1920, height: 1080, ["--qr", "TAG-A"])
            try camera.play([(tagA, 240), (empty, 240), (tagA, 240)], fps: 240)
            let output = try await camera.probe(
                config: ["goneAfterSeconds": 0.5, "selectTimeoutSeconds": 0.5, "fps": 240, "width": 1920, "height": 1080])
            let captured = output.stat("framesCaptured")
            let decoded = output.stat("framesDecoded")
            let stale = output.stat("framesDroppedStale")
            #expect(stale > 0, "the decoder kept up with \(captured) frames; the test needs it slower")
            #expect(decoded + stale == captured, "every frame is either decoded or replaced, none waits in a queue")
            #expect(output.stat("maxFramesBehind") == 0)
            #expect(output.codes.map(\.description) == ["TAG-A[qrcode]", "TAG-A[qrcode] again"])
        }
    }
}
