import Foundation
import TestKit
import Testing

/// `audit scan --images`: every code in every image is one scan; a bad file is reported and
/// the run goes on.
@Suite struct ImageScanTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleImages")

    @Test func codesInImageFilesAndFoldersAreScanned() async throws {
        let scratch = try StationProcess.scratch()
        let file = scratch.folder.appendingPathComponent("inventory.csv")
        try CSVFixture("asset_tag", "name", "country")
            .row("AST-000456", "Desktop", "SG").row("AST-000123", "Printer", "SG").row("TAG-7781", "Jack", "MY")
            .write(to: file)
        #expect(try await StationProcess.run(["--database", scratch.database, "assets", "import", file.path]).status == 0)
        #expect(try await StationProcess.run(["--database", scratch.database, "audit", "start", "--country", "SG"]).status == 0)

        let folder = scratch.folder.appendingPathComponent("labels")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["code128-01-clean.png", "qrcode-15-photo.jpg", "none-01-white.png"] {
            try FileManager.default.copyItem(at: Self.samples.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("broken.png"))
        let result = try await StationProcess.run([
            "--database", scratch.database, "audit", "scan", "--json", "--images",
            folder.path, Self.samples.appendingPathComponent("code39-01-clean.png").path
        ])
        #expect(result.status == 2, "the broken file makes the exit status 2: \(result.stderr)")
        let objects = try result.lines.map(jsonObject)
        // Folder entries sorted by name: broken.png, code128 (AST-000456), none, qrcode (AST-000123); then code39 (TAG-7781).
        #expect(objects.map { $0["status"] as? String } == ["error", "found_expected", "found_expected", "unexpected"])
        #expect(objects.compactMap { $0["identifier"] as? String } == ["AST-000456", "AST-000123", "TAG-7781"])
        #expect((objects.first?["message"] as? String)?.contains("broken.png") == true)
        let progress = try #require(objects.last?["progress"] as? [String: Any])
        #expect(progress["scanned_count"] as? Int == 2)
        #expect(progress["unexpected_count"] as? Int == 1)
        #expect(try ManualScanTests.scanCount(scratch.database) == 3)
    }
}
