import Foundation

/// Draws a document on two threads: the caller lays out the pages (reading rows, cutting them
/// into cells) and records each page's drawing, while a thread of its own plays the finished
/// pages onto the PDF canvas (cairo). A few pages wait between the two at most.
///
/// The calls mirror `PDFCanvas`'s; the caller's side is used by one thread at a time.
final class PageQueue: @unchecked Sendable {
    typealias Op = @Sendable (PDFCanvas) -> Void

    private let pages = Handoff<[Op]>(capacity: 4)
    private var page: [Op] = []
    /// Set when the drawing side stopped: the pages after it are dropped, and `close` throws it.
    private var failure: (any Error)?

    init() { page.reserveCapacity(128) }

    /// Plays the pages onto `canvas` on a thread of its own until `close` or `fail`, then
    /// finishes the canvas; answers when it has.
    func play(onto canvas: PDFCanvas) async throws {
        let box = CanvasBox(canvas)
        let pages = self.pages
        try await onOwnThread(name: "report-pdf") {
            while let ops = pages.take() {
                for op in ops { op(box.canvas) }
            }
            if let error = pages.error { throw error }
            try box.canvas.finish()
        }
    }

    /// Ends the last page: the drawing thread finishes the document.
    func close() throws {
        flush()
        if let failure { throw failure }
        pages.close()
    }

    /// Stops the drawing thread.
    func fail(_ error: any Error) { pages.fail(error) }

    private func flush() {
        guard !page.isEmpty, failure == nil else { return }
        do { try pages.put(page) } catch { failure = error }
        page = []
        page.reserveCapacity(128)
    }

    func nextPage() {
        page.append { $0.nextPage() }
        flush()
    }

    func color(_ color: RGB) { page.append { $0.color(color) } }

    func text(
        _ text: String, x: Double, baseline: Double, width: Double = 0, font: PDFCanvas.Font = .sans, size: Double,
        align: PDFCanvas.Align = .left
    ) {
        page.append { $0.text(text, x: x, baseline: baseline, width: width, font: font, size: size, align: align) }
    }

    func line(from: (Double, Double), to: (Double, Double), width: Double = 0.5) {
        let (x1, y1) = from
        let (x2, y2) = to
        page.append { $0.line(from: (x1, y1), to: (x2, y2), width: width) }
    }

    func fill(x: Double, y: Double, width: Double, height: Double) { page.append { $0.fill(x: x, y: y, width: width, height: height) } }

    func ringSegment(centerX: Double, centerY: Double, outer: Double, inner: Double, from: Double, to: Double) {
        page.append { $0.ringSegment(centerX: centerX, centerY: centerY, outer: outer, inner: inner, from: from, to: to) }
    }

    func row(_ cells: [String?], columns: [TableColumn], x: Double, baseline: Double, font: PDFCanvas.Font = .sans, size: Double) {
        page.append { $0.row(cells, columns: columns, x: x, baseline: baseline, font: font, size: size) }
    }

    /// A table row of cells given as UTF-8 bytes (nil or empty: nothing drawn); the bytes are copied.
    func row(_ cells: [UnsafeRawBufferPointer?], columns: [TableColumn], x: Double, baseline: Double, font: PDFCanvas.Font = .sans, size: Double) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(cells.reduce(0) { $0 + ($1?.count ?? 0) })
        var ends: [Int] = []
        ends.reserveCapacity(cells.count)
        for cell in cells {
            if let cell {
                bytes.append(contentsOf: cell)
                ends.append(bytes.count)
            } else {
                ends.append(-1)
            }
        }
        page.append { [bytes, ends] canvas in
            bytes.withUnsafeBytes { raw in
                var pointers: [UnsafeRawBufferPointer?] = []
                pointers.reserveCapacity(ends.count)
                var start = 0
                for end in ends {
                    if end < 0 {
                        pointers.append(nil)
                    } else {
                        pointers.append(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
                        start = end
                    }
                }
                canvas.row(pointers, columns: columns, x: x, baseline: baseline, font: font, size: size)
            }
        }
    }
}

/// The canvas, handed to the drawing thread (which alone uses it from then on).
private final class CanvasBox: @unchecked Sendable {
    let canvas: PDFCanvas
    init(_ canvas: PDFCanvas) { self.canvas = canvas }
}
