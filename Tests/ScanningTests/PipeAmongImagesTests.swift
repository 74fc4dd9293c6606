import Foundation
import Testing

@testable import Scanning

#if canImport(Glibc)
    import Glibc
#endif

/// A path that is not a plain file never holds the reading up: a named pipe left in a folder of
/// photos is refused at once and the walk goes on; a pipe that sends an image is read.
@Suite("Pipes among images")
struct PipeAmongImagesTests {
    @Test("A named pipe with no writer, in a folder or named alone, is refused at once, and the folder's images are read")
    func aPipeWithNoWriter() async throws {
        let folder = try Fixtures.scratchFolder()
        try Fixtures.write(try Fixtures.bytes("qrcode-01-clean.png"), to: folder + "/b.png")
        #expect(mkfifo(folder + "/a.png", 0o600) == 0)
        let started = ContinuousClock.now
        var seen: [String] = []
        for await result in ImageDecodeSequence(paths: [folder]) {
            switch result.outcome {
            case .success(let codes): seen.append("\(result.path): \(codes.map(\.text).joined(separator: ","))")
            case .failure(let error): seen.append("\(result.path): \(error.localizedDescription)")
            }
        }
        #expect(ContinuousClock.now - started < .seconds(3), "the walk waited on the pipe")
        #expect(seen.count == 2 && seen.last == "\(folder)/b.png: AST-000123", "\(seen)")
        #expect(seen.first?.contains("named pipe") == true, "\(seen)")
        #expect(throws: ImageError.unreadable(path: folder + "/a.png", reason: "it is a named pipe, and nothing was writing to it")) {
            try ImageLoader.load(path: folder + "/a.png")
        }
    }

    @Test("A pipe that sends an image, in pieces and after a pause, is read to its end")
    func aPipeThatSendsAnImage() throws {
        let folder = try Fixtures.scratchFolder()
        let pipe = folder + "/photo.png"
        #expect(mkfifo(pipe, 0o600) == 0)
        let bytes = try Fixtures.bytes("qrcode-01-clean.png")
        // The writer opens the pipe before the reader does (as a shell's `<(…)` has), then sends
        // the image in two halves 200 ms apart.
        let opened = DispatchSemaphore(value: 0)
        let writer = Thread {
            let fd = open(pipe, O_RDWR) // does not wait for a reader
            opened.signal()
            bytes.withUnsafeBytes { buffer in
                _ = write(fd, buffer.baseAddress, bytes.count / 2)
                usleep(200_000)
                _ = write(fd, buffer.baseAddress! + bytes.count / 2, bytes.count - bytes.count / 2)
            }
            close(fd)
        }
        writer.start()
        opened.wait()
        let image = try ImageLoader.load(path: pipe)
        #expect(try BarcodeDecoder(config: DecoderConfig()).decode(image).map(\.text) == ["AST-000123"])
    }
}
