import CameraTestSupport
import Foundation
import Testing
@testable import Scanning
import TestKit

struct CameraCatalogTests {
    @Test func listsTheCamerasFormatsAndSizes() async throws {
        let camera = try await FakeCamera()
        try camera.play([(try await camera.frame("empty", width: 320, height: 240), 1)], fps: 30, format: "YUYV")
        let description = try await camera.list()
        #expect(description["device"] as? String == camera.device)
        #expect(description["driver"] as? String == "fakev4l2")
        let formats = try #require(description["formats"] as? [[String: Any]])
        let native = formats.filter { $0["emulated"] as? Bool == false }
        #expect(native.map { $0["fourcc"] as? String } == ["YUYV"])
        #expect(native.first?["sizes"] as? [String] == ["320x240"])
        #expect(formats.contains { $0["fourcc"] as? String == "YU12" && $0["emulated"] as? Bool == true })
    }

    @Test func devicePathsAreVideoNodesInNumericOrder() throws {
        let directory = Scratch.root.appendingPathComponent("dev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["video10", "video2", "video0", "videoX", "vbi0", "media0"] {
            #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: nil))
        }
        #expect(CameraCatalog.devicePaths(in: directory.path) == ["video0", "video2", "video10"].map { directory.path + "/" + $0 })
    }

    @Test func fourccNamesRoundTrip() {
        #expect(V4L2Fourcc.name(V4L2Fourcc.yuyv) == "YUYV")
        #expect(V4L2Fourcc.code("GREY") == V4L2Fourcc.grey)
        #expect(V4L2Fourcc.code("MJPEG") == nil)
    }

    @Test func errnoMapsToAnActionableMessage() {
        #expect(CameraError.from(errno: ENOENT, device: "/dev/video0", operation: "open") == .notFound(device: "/dev/video0"))
        #expect(
            CameraError.from(errno: EBUSY, device: "/dev/video0", operation: "open").localizedDescription
                == "camera /dev/video0 is busy: close the other program that uses it")
        #expect(
            CameraError.from(errno: EACCES, device: "/dev/video0", operation: "open").localizedDescription
                .contains("'video' group"))
        #expect(
            CameraError.from(errno: EIO, device: "/dev/video1", operation: "VIDIOC_DQBUF").localizedDescription
                == "camera /dev/video1: VIDIOC_DQBUF failed: Input/output error (errno 5)")
    }
}
