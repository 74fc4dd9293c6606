import DocumentKit
import Foundation
import Scanning
import Testing

/// Labels drawn as PDF pages, rendered at 300 dpi with pdftoppm and read back by our decoder:
/// every label must give back its tag.
@Suite("Asset labels", .serialized)
struct LabelTests {
    static let tags = [
        "TAG-000001", "SG-LAPTOP-0042", "A1", "MY-99-ZZ", "dock-b/7", "X-1234567", "TAG 42", "LP-0009", "INV-2026-11", "Z",
        "HQ-PRN-3", "0012345678"
    ]

    static func labels(_ count: Int, tags: [String] = LabelTests.tags) -> [Label] {
        (0..<count).map { index in
            let tag = index < tags.count ? tags[index] : "TAG-\(String(format: "%04d", index))"
            return Label(
                tag: tag,
                name: index % 3 == 0
                    ? "Laptop Dell Latitude 7440 " + String(repeating: "with a very long name ", count: 12) + "END-OF-NAME" : "Monitor \(index)")
        }
    }

    static func pdf(_ sheet: LabelSheet, _ labels: [Label], in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("labels-\(sheet.layout.rawValue)-\(sheet.symbology.rawValue).pdf")
        var data = Data()
        try sheet.pdf(labels) { data.append($0) }
        try data.write(to: url)
        return url
    }

    /// Decodes every label of one rendered page, cutting the image at the layout's grid.
    static func decodeEach(_ image: GrayImage, layout: LabelLayout, count: Int, dpi: Double = 300) throws -> [String?] {
        let decoder = try BarcodeDecoder()
        let perPage = layout.labelsPerPage
        let (labelWidth, labelHeight) = layout.labelSize
        let geometry = Self.grid(layout)
        let pixelsPerMillimetre = dpi / 25.4
        return (0..<min(count, perPage)).map { slot in
            let x = (geometry.left + Double(slot % geometry.columns) * (labelWidth + geometry.gap)) * pixelsPerMillimetre
            let y = (geometry.top + Double(slot / geometry.columns) * labelHeight) * pixelsPerMillimetre
            let cell = image.crop(x: Int(x), y: Int(y), width: Int(labelWidth * pixelsPerMillimetre), height: Int(labelHeight * pixelsPerMillimetre))
            return decoder.decode(cell).first?.text
        }
    }

    /// The labels' cells of one page, in points.
    static func cells(_ layout: LabelLayout, count: Int) -> [CGRect] {
        let grid = Self.grid(layout)
        let (width, height) = layout.labelSize
        let points = 72 / 25.4
        return (0..<count).map { slot in
            CGRect(
                x: (grid.left + Double(slot % grid.columns) * (width + grid.gap)) * points,
                y: (grid.top + Double(slot / grid.columns) * height) * points,
                width: width * points, height: height * points)
        }
    }

    /// One decode at a time, beside the tests' servers on a 2-core machine.
    static let decoding = DispatchQueue(label: "label-decoding")

    /// Decodes on a queue of its own, so the CPU-bound decoding never holds a thread of the concurrency pool.
    static func decodeOffPool(_ image: GrayImage, layout: LabelLayout, count: Int) async throws -> [String?] {
        try await withCheckedThrowingContinuation { continuation in
            decoding.async { continuation.resume(with: Result { try decodeEach(image, layout: layout, count: count) }) }
        }
    }

    /// The grid in millimetres, written out here as a printer's template gives it.
    static func grid(_ layout: LabelLayout) -> (left: Double, top: Double, columns: Int, gap: Double) {
        switch layout {
        case .a4_3x8: (0, 4.5, 3, 0)
        case .a4_4x10: (8, 21.5, 4, 0)
        case .letter_3x10: (0.1875 * 25.4, 0.5 * 25.4, 3, 0.125 * 25.4)
        case .roll_62x29: (0, 0, 1, 0)
        }
    }

    @Test(arguments: LabelLayout.allCases, LabelSymbology.allCases)
    func everyLabelDecodesBackToItsTag(layout: LabelLayout, symbology: LabelSymbology) async throws {
        let folder = try Poppler.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = LabelSheet(symbology: symbology, layout: layout)
        // Twelve labels of a sheet (roll: three labels, one a page, so page breaks are checked too).
        let count = layout == .roll_62x29 ? 3 : min(layout.labelsPerPage, 12) + (layout.labelsPerPage <= 12 ? 1 : 0)
        let labels = Self.labels(count)
        let url = try Self.pdf(sheet, labels, in: folder)
        let expectedPages = (count + layout.labelsPerPage - 1) / layout.labelsPerPage
        #expect(try await Poppler.pages(url) == expectedPages)
        var decoded: [String?] = []
        for page in 1...expectedPages {
            let image = try await Poppler.render(url, page: page)
            decoded += try await Self.decodeOffPool(image, layout: layout, count: count - (page - 1) * layout.labelsPerPage)
        }
        #expect(decoded == labels.map(\.tag), "\(layout.rawValue) \(symbology.rawValue)")
        // The tag is printed as text, and the long name is cut to fit.
        let text = try await Poppler.text(url)
        for label in labels { #expect(text.contains(label.tag)) }
        // Nothing is drawn outside its label: every word's box (pdftotext -bbox, in points) lies in one label's cell.
        let cells = Self.cells(layout, count: min(count, layout.labelsPerPage))
        let boxes = try await Poppler.wordBoxes(url, page: 1)
        #expect(!boxes.isEmpty)
        for box in boxes {
            #expect(
                cells.contains { cell in
                    box.minX >= cell.minX - 0.5 && box.maxX <= cell.maxX + 0.5 && box.minY >= cell.minY - 0.5 && box.maxY <= cell.maxY + 0.5
                },
                "\(layout.rawValue) \(symbology.rawValue): a word at \(box) is outside every label")
        }
    }

    @Test func aUnicodeTagDecodesBackFromQRAndDataMatrix() async throws {
        let folder = try Poppler.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        for symbology in [LabelSymbology.qr, .datamatrix] {
            let sheet = LabelSheet(symbology: symbology, layout: .roll_62x29)
            let labels = [Label(tag: "ÄSSET-ø-1", name: "Übergröße ✓")]
            let url = try Self.pdf(sheet, labels, in: folder)
            let image = try await Poppler.render(url, page: 1)
            #expect(try await Self.decodeOffPool(image, layout: .roll_62x29, count: 1) == ["ÄSSET-ø-1"], "\(symbology)")
        }
    }

    @Test func zplHasOneLabelPerTagWithItsSymbolAndText() throws {
        let labels = [Label(tag: "TAG-1", name: "Laptop"), Label(tag: "A^B~C_D", name: "Ünïcode\u{7} name")]
        for (symbology, command) in [(LabelSymbology.qr, "^BQN"), (.datamatrix, "^BXN"), (.code128, "^BCN")] {
            let zpl = try LabelSheet(symbology: symbology, layout: .roll_62x29).zpl(labels)
            #expect(zpl.components(separatedBy: "^XA").count - 1 == 2)
            #expect(zpl.components(separatedBy: "^XZ").count - 1 == 2)
            #expect(zpl.components(separatedBy: command).count - 1 == 2, "\(symbology)")
            #expect(zpl.contains("^PW496") && zpl.contains("^LL232"), "62 x 29 mm at 203 dpi")
            #expect(zpl.contains("^FDTAG-1^FS") || zpl.contains("^FDMA,TAG-1^FS"))
            // ^, ~ and _ are hex-escaped under ^FH, the control character is dropped, UTF-8 is hex.
            #expect(zpl.contains("A_5EB_7EC_5FD"))
            #expect(zpl.contains("_C3_9Cn_C3_AFcode name"))
            #expect(zpl.allSatisfy { $0.isASCII })
        }
        let sheetZPL = try LabelSheet(symbology: .qr, layout: .a4_3x8).zpl(labels)
        #expect(sheetZPL.contains("^PW559"), "70 mm wide at 203 dpi")
    }

    @Test func badInputIsAClearError() throws {
        // A tag too long for the symbology on the layout names the tag and the size.
        let long = String(repeating: "X", count: 40)
        #expect(throws: LabelError.self) { try LabelSheet(symbology: .code128, layout: .a4_4x10).validate([Label(tag: long, name: "n")]) }
        do {
            try LabelSheet(symbology: .code128, layout: .a4_4x10).validate([Label(tag: long, name: "n")])
        } catch {
            #expect("\(error)".contains("too long for a code128 symbol on a4-4x10"))
        }
        let huge = String(repeating: "Q", count: 2000)
        for symbology in LabelSymbology.allCases {
            #expect(throws: LabelError.self) { try LabelSheet(symbology: symbology, layout: .a4_3x8).validate([Label(tag: huge, name: "n")]) }
        }
        #expect(throws: LabelError.self) { try LabelSheet(symbology: .code128, layout: .a4_3x8).validate([Label(tag: "ÄSSET", name: "n")]) }
        #expect(throws: LabelError.invalid("no labels: no asset matched")) { try LabelSheet(symbology: .qr, layout: .a4_3x8).validate([]) }
        #expect(LabelSymbology(rawValue: "pdf417") == nil && LabelLayout(rawValue: "a4-2x2") == nil)
        // Nothing is written when one label of many cannot be printed.
        var written = 0
        #expect(throws: LabelError.self) {
            try LabelSheet(symbology: .code128, layout: .a4_4x10).pdf(Self.labels(5) + [Label(tag: long, name: "n")]) { written += $0.count }
        }
        #expect(written == 0)
    }
}
