import Foundation
import InventoryCore
import InventoryStore
import Scanning

// Photo storage per 1,000 unexpected scans: the evidence JPEGs a camera station keeps, made
// from the photographs in SampleImages/ scaled to a 1280×720 camera frame, stored beside
// 1,000 unknown scans in a fresh SQLite file.
//
//   swift run -c release --package-path Benchmarks photo-benchmark [SCANS] [SampleImages]

let arguments = CommandLine.arguments
let scans = arguments.count > 1 ? Int(arguments[1]) ?? 1000 : 1000
let folder = arguments.count > 2 ? arguments[2] : "SampleImages"
let names = (try FileManager.default.contentsOfDirectory(atPath: folder)).filter { $0.hasSuffix(".jpg") }.sorted()
var frames: [GrayImage] = []
for name in names {
    guard let image = try? ImageLoader.load(path: "\(folder)/\(name)") else { continue }
    frames.append(image.resized(width: 1280, height: 720))
}
guard !frames.isEmpty else {
    FileHandle.standardError.write(Data("No .jpg photographs in \(folder)\n".utf8))
    exit(1)
}
let path = FileManager.default.temporaryDirectory.appendingPathComponent("photo-benchmark-\(UUID().uuidString).sqlite").path
defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
let database = try AppDatabase(path: path)
let audits = SQLiteAuditService(database: database)
let audit = try await audits.start(country: "SG", by: Actor(user: "bench", station: "bench"))
var ids: [String] = []
for index in 0..<scans {
    let result = try await audits.record(
        ScanRequest(identifier: "STRAY-\(index)", auditId: audit.id, source: .camera, deviceName: "bench", user: "bench"))
    ids.append(result.scanId)
}
_ = try database.writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
func fileBytes() -> Int64 {
    ["", "-wal"].reduce(0) { sum, suffix in
        sum + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int64) ?? 0)
    }
}
let before = fileBytes()
var sizes: [Int] = []
var encodeSeconds = 0.0
for (index, id) in ids.enumerated() {
    let started = Date()
    guard let jpeg = EvidencePhoto.jpeg(frames[index % frames.count]) else { fatalError("a frame could not be encoded") }
    encodeSeconds += Date().timeIntervalSince(started)
    sizes.append(jpeg.count)
    try await audits.attachPhoto(try ScanPhoto(scanId: id, jpeg: Data(jpeg), takenAt: Date()), auditID: audit.id)
}
_ = try database.writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
let after = fileBytes()
sizes.sort()
let total = sizes.reduce(0, +)
let storage = try await audits.photoStorage(auditID: audit.id)
func kb(_ bytes: Double) -> String { String(format: "%.1f KB", bytes / 1024) }
print("photos: \(scans) unexpected camera scans, frames from \(frames.count) photographs in \(folder) at 1280x720")
print("jpeg size: mean \(kb(Double(total) / Double(scans))), median \(kb(Double(sizes[scans / 2]))), max \(kb(Double(sizes.last ?? 0)))")
print(
    "stored per 1,000 scans: \(String(format: "%.1f MB", Double(storage.bytes) * 1000 / Double(scans) / 1_048_576)) of JPEG; the SQLite file grew \(String(format: "%.1f MB", Double(after - before) * 1000 / Double(scans) / 1_048_576))"
)
print("encode: \(String(format: "%.1f ms", encodeSeconds * 1000 / Double(scans))) a frame")
