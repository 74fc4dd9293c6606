import Foundation
import InventoryCore
import InventoryStore
import Testing
import TestKit

/// `audit photo` and the PHOTO column of `audit scans` on a standalone station.
@Suite struct PhotoCommandTests {
    @Test func aScansPhotoIsSavedToAFileAndTheTrailSaysItHasOne() async throws {
        let (_, database) = try await ManualScanTests.prepared(assets: 3)
        let scanned = try await StationProcess.run(["--database", database, "audit", "scan", "--json"], input: Data("STRAY-1\nSG-1\n".utf8))
        let ids = try scanned.lines.map { try #require(try jsonObject($0)["scan_id"] as? String) }
        #expect(ids.count == 2)
        // The camera's photo of the stray scan, as a camera station stores it.
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x41, count: 300) + [0xFF, 0xD9])
        try await SQLiteAuditService(database: try AppDatabase(path: database))
            .attachPhoto(try ScanPhoto(scanId: ids[0], jpeg: jpeg, takenAt: Date()), auditID: nil)

        let file = Scratch.file("photo", suffix: ".jpg").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let saved = try await StationProcess.run(["--database", database, "audit", "photo", ids[0], "--output", file])
        #expect(saved.status == 0 && saved.stderr.contains("Wrote the photo"), "\(saved.stderr)")
        #expect(FileManager.default.contents(atPath: file) == jpeg)
        let trail = try await StationProcess.run(["--database", database, "audit", "scans"])
        let strayRow = trail.stdout.split(separator: "\n").first { $0.contains(ids[0]) }
        let foundRow = trail.stdout.split(separator: "\n").first { $0.contains(ids[1]) }
        #expect(strayRow?.contains("yes") == true && foundRow?.contains("yes") == false, "\(trail.stdout)")

        let none = try await StationProcess.run(["--database", database, "audit", "photo", ids[1], "--output", file])
        #expect(none.status != 0 && none.stderr.contains("the scan has none"))
        let unknown = try await StationProcess.run(["--database", database, "audit", "photo", "no-such-scan", "--output", file])
        #expect(unknown.status != 0 && unknown.stderr.contains("scan no-such-scan"))
    }
}
