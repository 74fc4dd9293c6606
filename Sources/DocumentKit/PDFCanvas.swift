import CDocument
import Foundation

/// pango's font maps, fontconfig and cairo's font caches are shared by every document of the
/// process: documents drawn on several threads at once take turns, one drawing call at a time.
let cairoLock = NSLock()

/// A failure while drawing or writing a document.
public struct DocumentError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A PDF being drawn (cairo's PDF surface through CDocument): text with pango and DejaVu,
/// lines, rectangles, ring segments and barcode symbols. The bytes go to `output` in pieces of
/// about 1 MiB as cairo writes them; nothing is kept whole in memory.
///
/// Lengths are PDF points (1/72 inch) from the page's top left. Not thread-safe: one task draws.
public final class PDFCanvas {
    public enum Font: Int32, Sendable {
        case sans = 0
        case bold = 1
        case mono = 2
    }

    public enum Align: Int32, Sendable {
        case left = 0
        case right = 1
        case center = 2
    }

    /// Takes cairo's bytes for `output`; keeps the first error `output` threw.
    private final class Sink {
        let output: (Data) throws -> Void
        var buffer = Data()
        var failure: (any Error)?
        var written = 0

        init(output: @escaping (Data) throws -> Void) { self.output = output }

        func take(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
            if failure != nil { return 1 }
            buffer.append(bytes, count: count)
            written += count
            return buffer.count >= 1 << 20 ? flush() : 0
        }

        func flush() -> Int32 {
            guard !buffer.isEmpty, failure == nil else { return failure == nil ? 0 : 1 }
            do {
                try output(buffer)
                buffer.removeAll(keepingCapacity: true)
                return 0
            } catch {
                failure = error
                return 1
            }
        }
    }

    private let document: OpaquePointer
    private let sink: Sink
    public let width: Double
    public let height: Double
    /// Bytes cairo has written so far.
    public var bytesWritten: Int { sink.written }

    public init(width: Double, height: Double, output: @escaping (Data) throws -> Void) throws {
        let sink = Sink(output: output)
        let context = Unmanaged.passUnretained(sink).toOpaque()
        let write: cdoc_write_fn = { context, data, length in
            guard let context, let data else { return 1 }
            return Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue().take(data, Int(length))
        }
        guard let document = cairoLock.withLock({ cdoc_create(write, context, width, height) }) else {
            throw DocumentError("cairo could not start a PDF")
        }
        self.document = document
        self.sink = sink
        self.width = width
        self.height = height
    }

    deinit {
        cairoLock.withLock { cdoc_destroy(document) }
        for pointer in [cellX, cellWidth] { pointer.deallocate() }
        cellAlign.deallocate()
        cellText.deallocate()
        cellLength.deallocate()
    }

    public enum Metadata: Int32 {
        case title = 0
        case author = 1
        case subject = 2
        case creator = 3
        case createDate = 4
        case modDate = 5
    }

    public func set(_ key: Metadata, _ value: String) { cdoc_set_metadata(document, key.rawValue, value) }

    public func color(_ red: Double, _ green: Double, _ blue: Double) { cdoc_set_color(document, red, green, blue) }
    public func color(_ color: RGB) { cdoc_set_color(document, color.red, color.green, color.blue) }

    /// One line of text on `baseline`, cut with an ellipsis to `width` (no limit when 0).
    @discardableResult
    public func text(_ text: String, x: Double, baseline: Double, width: Double = 0, font: Font = .sans, size: Double, align: Align = .left) -> Double
    {
        var text = text
        return text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                cairoLock.withLock { cdoc_text(document, font.rawValue, size, x, baseline, width, align.rawValue, chars.baseAddress, chars.count) }
            }
        }
    }

    /// Text wrapped into at most `lines` lines of `width` below `top`, the last cut with an ellipsis.
    public func textBox(_ text: String, x: Double, top: Double, width: Double, lines: Int, font: Font = .sans, size: Double, align: Align = .left) {
        var text = text
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                cairoLock.withLock {
                    cdoc_text_box(document, font.rawValue, size, x, top, width, Int32(lines), align.rawValue, chars.baseAddress, chars.count)
                }
            }
        }
    }

    public func textWidth(_ text: String, font: Font = .sans, size: Double) -> Double {
        var text = text
        return text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { buffer in
                cairoLock.withLock { cdoc_text_width(document, font.rawValue, size, buffer.baseAddress, buffer.count) }
            }
        }
    }

    /// Scratch space for `row`: x, width, alignment, text and length of each cell.
    private let cellX = UnsafeMutablePointer<Double>.allocate(capacity: PDFCanvas.maxCells)
    private let cellWidth = UnsafeMutablePointer<Double>.allocate(capacity: PDFCanvas.maxCells)
    private let cellAlign = UnsafeMutablePointer<Int32>.allocate(capacity: PDFCanvas.maxCells)
    private let cellText = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: PDFCanvas.maxCells)
    private let cellLength = UnsafeMutablePointer<Int>.allocate(capacity: PDFCanvas.maxCells)
    static let maxCells = 32

    /// A table row of cells given as UTF-8 bytes (nil or empty: nothing drawn).
    public func row(
        _ cells: [UnsafeRawBufferPointer?], columns: [TableColumn], x: Double, baseline: Double, font: Font = .sans, size: Double
    ) {
        let count = min(cells.count, columns.count, Self.maxCells)
        var left = x
        for index in 0..<count {
            let column = columns[index]
            cellX[index] = left + 2
            cellWidth[index] = column.width - 4
            cellAlign[index] = column.align.rawValue
            left += column.width
            if let cell = cells[index], let base = cell.baseAddress, cell.count > 0 {
                cellText[index] = base.assumingMemoryBound(to: CChar.self)
                cellLength[index] = cell.count
            } else {
                cellText[index] = nil
                cellLength[index] = 0
            }
        }
        cairoLock.withLock { cdoc_row(document, font.rawValue, size, baseline, Int32(count), cellX, cellWidth, cellAlign, cellText, cellLength) }
    }

    /// A table row of strings.
    public func row(_ cells: [String?], columns: [TableColumn], x: Double, baseline: Double, font: Font = .sans, size: Double) {
        let datas = cells.map { $0.map { Data($0.utf8) } }
        func go(_ index: Int, _ pointers: [UnsafeRawBufferPointer?]) {
            if index == datas.count { return row(pointers, columns: columns, x: x, baseline: baseline, font: font, size: size) }
            guard let data = datas[index] else { return go(index + 1, pointers + [nil]) }
            data.withUnsafeBytes { go(index + 1, pointers + [$0]) }
        }
        go(0, [])
    }

    public func fill(x: Double, y: Double, width: Double, height: Double) { cdoc_fill_rect(document, x, y, width, height) }

    public func stroke(x: Double, y: Double, width: Double, height: Double, lineWidth: Double = 0.5) {
        cdoc_stroke_rect(document, x, y, width, height, lineWidth)
    }

    public func line(from: (Double, Double), to: (Double, Double), width: Double = 0.5) {
        cdoc_line(document, from.0, from.1, to.0, to.1, width)
    }

    /// A donut slice from `from` to `to` (fractions of a turn, clockwise from 12 o'clock).
    public func ringSegment(centerX: Double, centerY: Double, outer: Double, inner: Double, from: Double, to: Double) {
        cdoc_ring_segment(document, centerX, centerY, outer, inner, from * 2 * .pi, to * 2 * .pi)
    }

    /// Draws a symbol with modules of `module` points from (x, y); Code 128's bars are `barHeight` high.
    public func symbol(_ symbology: LabelSymbology, data: String, x: Double, y: Double, module: Double, barHeight: Double) throws {
        var message = [CChar](repeating: 0, count: 160)
        let bytes = Array(data.utf8)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                cairoLock.withLock {
                    cdoc_symbol_draw(document, symbology.code, chars.baseAddress, Int32(chars.count), x, y, module, barHeight, &message, 160)
                }
            }
        }
        if status != 0 { throw DocumentError("\(symbology.rawValue): \(cText(message))") }
    }

    public func nextPage() { cairoLock.withLock { cdoc_next_page(document) } }

    /// Ends the document and hands the last bytes to `output`.
    public func finish() throws {
        let status = cairoLock.withLock { cdoc_finish(document) }
        if let failure = sink.failure { throw failure }
        guard status == 0 else { throw DocumentError("cairo: \(String(cString: cdoc_status_text(status)))") }
        _ = sink.flush()
        if let failure = sink.failure { throw failure }
    }
}

/// A colour, 0...1 each.
public struct RGB: Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init(_ red: Double, _ green: Double, _ blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let black = RGB(0, 0, 0)
    public static let gray = RGB(0.45, 0.45, 0.45)
    public static let rule = RGB(0.75, 0.75, 0.75)
    public static let shade = RGB(0.93, 0.93, 0.93)
}

/// A column of a table: its width and how its cells align.
public struct TableColumn: Sendable {
    public var title: String
    public var width: Double
    public var align: PDFCanvas.Align

    public init(_ title: String, _ width: Double, _ align: PDFCanvas.Align = .left) {
        self.title = title
        self.width = width
        self.align = align
    }
}

extension LabelSymbology {
    var code: Int32 {
        switch self {
        case .qr: 0
        case .datamatrix: 1
        case .code128: 2
        }
    }
}

/// The text of a NUL-terminated C buffer.
func cText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
