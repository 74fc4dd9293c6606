import BrowserTestSupport
import CameraTestSupport
import Foundation
import Testing
import TestKit

/// The kiosk's own camera keeps evidence: an unknown tag held up to the (emulated) camera is
/// recorded with the frame that showed it, `audit photo` writes that frame out, and the last
/// scans mark it; a tag found where it belongs keeps none.
@Suite("The kiosk's camera keeps the photo of questionable scans")
struct KioskCameraPhotoTests {
    @Test("An unknown tag seen by the kiosk's camera keeps its frame; a found one does not")
    func unknownCameraScanKeepsItsFrame() async throws {
        let camera = try await FakeCamera()
        let blank = try await camera.frame("blank", width: 640, height: 480)
        let stray = try await camera.frame("stray", width: 640, height: 480, ["--qr", "STRAY-77"])
        let found = try await camera.frame("found", width: 640, height: 480, ["--qr", "T-1"])
        try camera.play([(blank, 15), (stray, 30), (blank, 45), (found, 30), (blank, 15)], fps: 15, atEnd: "loop")
        let kiosk = try await KioskProcess(inventory: [("T-1", "Laptop one", "SG")])
        try await kiosk.run(["audit", "start", "--country", "SG"])
        var environment = camera.environment
        environment["LD_PRELOAD"] = camera.library.path
        try await kiosk.start(["--device", camera.device], environment: environment)

        var recent: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline {
            recent = (try? await kiosk.call("GET", "/api/state").body["recent"] as? [[String: Any]]) ?? []
            let stray = recent.first { $0["identifier"] as? String == "STRAY-77" }
            if stray?["has_photo"] as? Bool == true, recent.contains(where: { $0["identifier"] as? String == "T-1" }) { break }
            try await Task.sleep(for: .milliseconds(300))
        }
        let strayScan = try #require(recent.first { $0["identifier"] as? String == "STRAY-77" }, "no camera scan of STRAY-77: \(recent)")
        #expect(strayScan["source"] as? String == "camera")
        #expect(strayScan["has_photo"] as? Bool == true, "the last scans do not mark the photo: \(strayScan)")
        let foundScan = try #require(recent.first { $0["identifier"] as? String == "T-1" }, "no camera scan of T-1: \(recent)")
        #expect(foundScan["has_photo"] as? Bool != true, "a found asset keeps no photo")

        let scanID = try #require(strayScan["scan_id"] as? String)
        let file = kiosk.folder.appendingPathComponent("stray.jpg")
        try await kiosk.run(["audit", "photo", scanID, "--output", file.path])
        let jpeg = try Data(contentsOf: file)
        #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF]) && jpeg.count > 1000, "not a JPEG of the frame: \(jpeg.count) bytes")
        let none = try? await kiosk.run(["audit", "photo", try #require(foundScan["scan_id"] as? String), "--output", file.path])
        #expect(none == nil, "the found scan has a photo")
    }
}
