import DocumentKit
import Foundation
import Testing

/// Names in the scripts of our countries' staff (Chinese and Tamil in SG and MY, Japanese, Korean
/// and Thai besides) keep every glyph in the PDFs: the fonts that have them (Debian's Noto,
/// installed by scripts/setup.sh) are embedded, and the text reads back character for character.
/// A glyph pango cannot find is drawn as a box of hex digits, which pdftotext does not read back
/// as the character.
@Suite("Names in every script in the PDFs")
struct ScriptFontTests {
    static let names: [(script: String, name: String, font: String)] = [
        ("Chinese", "笔记本电脑 仓库", "NotoSansCJK"), ("Japanese", "ノートパソコン 倉庫", "NotoSansCJK"),
        ("Korean", "노트북 창고", "NotoSansCJK"), ("Tamil", "மடிக்கணினி கிடங்கு", "NotoSansTamil"),
        ("Thai", "คอมพิวเตอร์ คลังสินค้า", "NotoSansThai")
    ]

    @Test("The report's text and the labels draw every name with an embedded font that has its glyphs")
    func everyScriptIsEmbeddedAndReadsBack() async throws {
        let folder = try Poppler.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("text.pdf")
        let data = LockedData()
        let canvas = try PDFCanvas(width: 420, height: 300) { data.append($0) }
        for (index, entry) in Self.names.enumerated() {
            canvas.text(entry.name, x: 10, baseline: 30 + Double(index) * 24, width: 400, size: 12)
        }
        try canvas.finish()
        try data.value.write(to: report)

        let sheet = LabelSheet(symbology: .qr, layout: LabelLayout.allCases[0])
        let labels = try LabelTests.pdf(sheet, Self.names.enumerated().map { Label(tag: "TAG-\($0.offset)", name: $0.element.name) }, in: folder)

        for pdf in [report, labels] {
            // A label's name wraps (Thai between syllables): compared without the spaces and line breaks.
            let text = try await Poppler.text(pdf).filter { !$0.isWhitespace }
            let fonts = try await Poppler.tool("pdffonts", [pdf.path]).stdout
            for entry in Self.names {
                for word in entry.name.split(separator: " ") {
                    #expect(text.contains(word), "\(pdf.lastPathComponent): the \(entry.script) word \(word) does not read back: \(text)")
                }
                #expect(fonts.contains(entry.font), "\(pdf.lastPathComponent): no \(entry.font) embedded for \(entry.script):\n\(fonts)")
            }
            // Every font is embedded (pdffonts' "emb" column), so the page looks the same anywhere.
            for line in fonts.split(separator: "\n").dropFirst(2) {
                #expect(line.split(separator: " ").contains("yes"), "\(pdf.lastPathComponent): a font is not embedded: \(line)")
            }
        }
    }
}
