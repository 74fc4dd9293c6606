import Foundation
import Testing

/// `audit-station decode`: both engines, in file order, with the engines named in JSON.
struct DecodeCommandTests {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleImages")

    @Test("decode --json reads Data Matrix and names the engines of each code, in the order of the files")
    func jsonNamesEngines() async throws {
        let files = ["datamatrix-01-clean.png", "qrcode-01-clean.png", "none-01-white.png", "code128-40-fnc4.png"]
        let output = try await StationProcess.run(["decode", "--json"] + files.map { Self.samples.appendingPathComponent($0).path })
        #expect(output.status == 0)
        let lines = try output.lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        #expect(lines.compactMap { ($0["file"] as? String).map { ($0 as NSString).lastPathComponent } } == files)
        let codes = lines.map { $0["codes"] as? [[String: Any]] ?? [] }
        #expect(codes[0].first?["symbology"] as? String == "datamatrix")
        #expect(codes[0].first?["engines"] as? [String] == ["zxing"])
        #expect(codes[1].first?["text"] as? String == "AST-000123")
        #expect(codes[1].first?["engines"] as? [String] == ["zbar", "zxing"])
        #expect(codes[2].isEmpty)
        #expect(codes[3].first?["text"] as? String == "Größe-Ä1")
    }

    @Test("decoder.engines in the config chooses the engines: zbar alone reads no Data Matrix")
    func engineChoiceFromConfig() async throws {
        let scratch = try StationProcess.scratch()
        let config = scratch.folder.appendingPathComponent("station.json")
        try Data(#"{"decoder": {"engines": ["zbar"]}}"#.utf8).write(to: config)
        let output = try await StationProcess.run([
            "--config", config.path, "decode", "--json",
            Self.samples.appendingPathComponent("datamatrix-01-clean.png").path,
            Self.samples.appendingPathComponent("qrcode-01-clean.png").path
        ])
        #expect(output.status == 0)
        #expect(output.lines.count == 2)
        #expect(output.lines.first?.contains(#""codes":[]"#) == true)
        #expect(output.lines.last?.contains(#""engines":["zbar"]"#) == true)
    }
}
