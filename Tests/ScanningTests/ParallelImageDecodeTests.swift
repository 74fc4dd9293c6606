import Foundation
import Scanning
import Testing

/// Decoding a folder on several threads gives what the one-thread sequence gives, in its order.
struct ParallelImageDecodeTests {
    @Test(
        "two workers give the same results in the same order as the sequence, errors included",
        arguments: [1, 2, 3])
    func sameAsSequence(workers: Int) throws {
        let folder = try Fixtures.scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let names = [
            "qrcode-01-clean.png", "datamatrix-01-clean.png", "none-01-white.png", "code128-01-clean.png",
            "ean13-01-clean.png", "code39-01-clean.png"
        ]
        for index in 0..<15 {
            let name = names[index % names.count]
            try FileManager.default.copyItem(
                atPath: Fixtures.sample(name),
                toPath: "\(folder)/\(String(format: "%02d", index))-\(name)")
        }
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: "\(folder)/07b-broken.png"))
        let expected = Array(ImageDecodeSequence(paths: [folder, "/nonexistent/file.png"]))
        var parallel = ParallelImageDecode(paths: [folder, "/nonexistent/file.png"], workers: workers)
        parallel.batchPerWorker = 2
        var results: [ImageDecodeResult] = []
        parallel.run { results.append($0) }
        // zbar's quality figure carries a little state from image to image, so compare what was read.
        let summary = { (results: [ImageDecodeResult]) in
            results.map { result in
                switch result.outcome {
                case .success(let codes): "\(result.path): " + codes.map { "\($0.symbology) \($0.text) \($0.engines)" }.joined()
                case .failure(let error): "\(result.path): \(error.localizedDescription)"
                }
            }
        }
        #expect(results.count == 17)
        #expect(summary(results) == summary(expected))
        #expect(results.filter { if case .failure = $0.outcome { true } else { false } }.count == 2)
    }
}
