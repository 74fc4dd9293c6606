import AsyncHTTPClient
import AuditAPI
import AuditServer
import Foundation
import InventoryStore
import NIOCore
import Scanning

/// `POST /api/v1/decode` from 8 concurrent clients, as phones send frames:
/// 1. frames/s and p50/p99 for 960×540 and 1280×720 JPEG frames made from SampleImages'
///    frame-1280x720-*.jpg (grey JPEG, quality 80), each client one request at a time;
/// 2. reads: every SampleImages image with its .txt, scaled to at most 1280 px wide as the phone
///    page sends it, as JPEG (quality 80), read through the route. With `--frames-out DIR` the
///    frames and their .txt are written there, for Benchmarks/peers/decode_frames.py DIR (zxing-cpp on the same files).
/// Run: swift run -c release --package-path Benchmarks server-benchmark decode [seconds=10] [--frames-out DIR]
enum DecodeBenchmark {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleImages")

    static func main() async {
        do { try await run() } catch {
            print("benchmark failed: \(error)")
            exit(1)
        }
    }

    static func run() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst(2))
        let seconds = arguments.compactMap { Double($0) }.first ?? 10
        let framesOut = arguments.firstIndex(of: "--frames-out").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decode-benchmark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The rate per user is lifted: one benchmark user stands for many phones.
        let settings = ServerSettings(host: "127.0.0.1", port: 0, decodeRate: DecodeRate(framesPerSecond: 1_000_000, burst: 1_000_000))
        let database = try AppDatabase(path: folder.appendingPathComponent("server.sqlite").path)
        let parts = try await ServerParts(backend: .sqlite(database), settings: settings)
        guard let (base, login, serverTask) = try await ServerBenchmark.serve(parts, settings: settings) else { return }
        print("server on \(base); \(ProcessInfo.processInfo.activeProcessorCount) cores; build: \(ServerBenchmark.isDebug ? "debug" : "release")")
        guard let encoder = JPEGEncoder() else { throw InventoryBenchmarkError("no JPEG encoder") }
        let sources = try FileManager.default.contentsOfDirectory(atPath: samples.path).filter {
            $0.hasPrefix("frame-1280x720-") && $0.hasSuffix(".jpg")
        }
        .sorted().map { try ImageLoader.load(path: samples.appendingPathComponent($0).path) }
        for (width, height) in [(960, 540), (1280, 720)] {
            let frames = sources.compactMap { encoder.encode($0.resized(width: width, height: height), quality: 80) }
            let bytes = frames.map(\.count).reduce(0, +) / max(1, frames.count)
            let (count, latencies) = try await throughput(base: base, token: login.token, frames: frames, clients: 8, seconds: seconds)
            let sorted = latencies.sorted()
            print(
                String(
                    format: "%d×%d (%d frames, mean %d bytes): %.1f frames/s from 8 clients over %.0f s; p50 %.1f ms, p99 %.1f ms", width, height,
                    frames.count, bytes, Double(count) / seconds, seconds, sorted[sorted.count / 2],
                    sorted[min(sorted.count - 1, sorted.count * 99 / 100)]))
        }
        try await reads(base: base, token: login.token, encoder: encoder, framesOut: framesOut)
        serverTask.cancel()
        _ = try? await serverTask.value
    }

    /// `clients` loops, each sending the frames in turn, one request at a time, for `seconds`.
    static func throughput(base: String, token: String, frames: [[UInt8]], clients: Int, seconds: Double) async throws -> (Int, [Double]) {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { _ = client.shutdown() }
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let results = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<clients {
                group.addTask {
                    var times: [Double] = []
                    var index = worker
                    while ContinuousClock.now < end {
                        let started = ContinuousClock.now
                        let status = try await post(frames[index % frames.count], client: client, base: base, token: token).status
                        guard status == 200 else { throw InventoryBenchmarkError("POST /api/v1/decode answered \(status)") }
                        times.append((ContinuousClock.now - started) / .milliseconds(1))
                        index += 1
                    }
                    return times
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        return (results.count, results)
    }

    static func post(_ frame: [UInt8], client: HTTPClient, base: String, token: String) async throws -> (status: Int, codes: [FrameCode]) {
        var request = HTTPClientRequest(url: base + Routes.decode)
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "image/jpeg")
        request.body = .bytes(ByteBuffer(bytes: frame))
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        struct Answer: Decodable { var data: DecodeResponse }
        let codes = try? JSONDecoder.auditStation().decode(Answer.self, from: Data(body.readableBytesView)).data.codes
        return (Int(response.status.code), codes ?? [])
    }

    /// Every sample with its expected text, as the page would send it: right (every expected
    /// text read), wrong (a text read that is not expected), missed.
    static func reads(base: String, token: String, encoder: JPEGEncoder, framesOut: String?) async throws {
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { _ = client.shutdown() }
        if let framesOut { try FileManager.default.createDirectory(atPath: framesOut, withIntermediateDirectories: true) }
        var (right, wrong, missed, total) = (0, 0, 0, 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: samples.path).filter { $0.hasSuffix(".png") || $0.hasSuffix(".jpg") }.sorted()
        for name in names {
            let stem = (name as NSString).deletingPathExtension
            let truthFile = samples.appendingPathComponent(stem + ".txt")
            let truth = (try? String(contentsOf: truthFile, encoding: .utf8)).map { $0.split(separator: "\n").map(String.init) } ?? []
            guard !truth.isEmpty || stem.hasPrefix("none-") else { continue }
            let image = try ImageLoader.load(path: samples.appendingPathComponent(name).path)
            let scale = min(1.0, 1280.0 / Double(image.width))
            let sent = scale < 1 ? image.resized(width: 1280, height: max(1, Int(Double(image.height) * scale))) : image
            guard let frame = encoder.encode(sent, quality: 80) else { continue }
            if let framesOut {
                _ = FileManager.default.createFile(atPath: "\(framesOut)/\(stem).jpg", contents: Data(frame))
                if !truth.isEmpty { try truth.joined(separator: "\n").write(toFile: "\(framesOut)/\(stem).txt", atomically: true, encoding: .utf8) }
            }
            let texts = Set(try await post(frame, client: client, base: base, token: token).codes.map(\.text))
            total += 1
            if !texts.isSubset(of: Set(truth)) {
                wrong += 1
            } else if Set(truth).isSubset(of: texts) && !truth.isEmpty {
                right += 1
            } else if !truth.isEmpty {
                missed += 1
            }
        }
        print("reads through POST /api/v1/decode: \(right) right, \(wrong) with a wrong text, \(missed) missed, of \(total) frames (none-*: no code)")
    }
}

struct InventoryBenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
