import CDocument
import Foundation
import InventoryCore

/// The symbol on a label.
public enum LabelSymbology: String, CaseIterable, Sendable, Codable {
    case qr, datamatrix, code128

    /// Quiet zone on each side, in modules, inside the space the symbol is given.
    var quietZone: Int {
        switch self {
        case .qr: 2
        case .datamatrix: 2
        case .code128: 10
        }
    }

    /// The smallest module (X-dimension) drawn, in points: 0.25 mm for 2D symbols, 0.2 mm for
    /// Code 128; about 3 and 2.4 pixels at 300 dpi, what a print and our decoder need.
    var minimumModule: Double { self == .code128 ? 0.2 * Label.pointsPerMillimetre : 0.25 * Label.pointsPerMillimetre }

    /// The symbol's size in modules (Code 128: its width, and 1 row), or why it cannot be made.
    func measure(_ data: String) throws -> (columns: Int, rows: Int) {
        if self == .code128, !data.utf8.allSatisfy({ $0 >= 32 && $0 < 127 }) {
            throw LabelError.invalid("tag '\(LabelError.shown(data))' is not printable ASCII, which code128 needs: use qr or datamatrix")
        }
        var columns: Int32 = 0
        var rows: Int32 = 0
        var message = [CChar](repeating: 0, count: 160)
        let bytes = Array(data.utf8)
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                cdoc_symbol_measure(code, $0.baseAddress, Int32($0.count), &columns, &rows, &message, 160)
            }
        }
        guard status == 0 else {
            throw LabelError.invalid("tag '\(LabelError.shown(data))' cannot be a \(rawValue) symbol: \(cText(message))")
        }
        return (Int(columns), Int(rows))
    }
}

/// Where labels go: the sheet (or roll) and its grid.
public enum LabelLayout: String, CaseIterable, Sendable, Codable {
    /// A4, 3 x 8 labels of 70 x 36 mm (Avery 3475-style).
    case a4_3x8 = "a4-3x8"
    /// A4, 4 x 10 labels of 48.5 x 25.4 mm.
    case a4_4x10 = "a4-4x10"
    /// US Letter, 3 x 10 labels of 2 5/8 x 1 in (Avery 5160-style).
    case letter_3x10 = "letter-3x10"
    /// A 62 mm roll cut at 29 mm (Brother DK-11209-style), one label a page.
    case roll_62x29 = "roll-62x29"

    struct Geometry {
        var pageWidth: Double
        var pageHeight: Double
        var columns: Int
        var rows: Int
        var labelWidth: Double
        var labelHeight: Double
        var left: Double
        var top: Double
        var columnGap: Double
        var rowGap: Double
        var padding: Double

        var perPage: Int { columns * rows }

        /// The top left of label `index` (0-based, row by row) of its page.
        func origin(_ index: Int) -> (x: Double, y: Double) {
            let slot = index % perPage
            return (
                left + Double(slot % columns) * (labelWidth + columnGap), top + Double(slot / columns) * (labelHeight + rowGap)
            )
        }
    }

    var geometry: Geometry {
        let mm = Label.pointsPerMillimetre
        switch self {
        case .a4_3x8:
            return Geometry(
                pageWidth: 210 * mm, pageHeight: 297 * mm, columns: 3, rows: 8, labelWidth: 70 * mm, labelHeight: 36 * mm, left: 0,
                top: 4.5 * mm, columnGap: 0, rowGap: 0, padding: 3 * mm)
        case .a4_4x10:
            return Geometry(
                pageWidth: 210 * mm, pageHeight: 297 * mm, columns: 4, rows: 10, labelWidth: 48.5 * mm, labelHeight: 25.4 * mm,
                left: 8 * mm, top: 21.5 * mm, columnGap: 0, rowGap: 0, padding: 2 * mm)
        case .letter_3x10:
            return Geometry(
                pageWidth: 612, pageHeight: 792, columns: 3, rows: 10, labelWidth: 189, labelHeight: 72, left: 13.5, top: 36, columnGap: 9,
                rowGap: 0, padding: 2 * mm)
        case .roll_62x29:
            return Geometry(
                pageWidth: 62 * mm, pageHeight: 29 * mm, columns: 1, rows: 1, labelWidth: 62 * mm, labelHeight: 29 * mm, left: 0, top: 0,
                columnGap: 0, rowGap: 0, padding: 2 * mm)
        }
    }

    /// The label's size in millimetres.
    public var labelSize: (width: Double, height: Double) {
        let geometry = geometry
        return (geometry.labelWidth / Label.pointsPerMillimetre, geometry.labelHeight / Label.pointsPerMillimetre)
    }

    /// Labels on one page.
    public var labelsPerPage: Int { geometry.perPage }
    /// The page size in points.
    public var pageSize: (width: Double, height: Double) { (geometry.pageWidth, geometry.pageHeight) }
}

public enum LabelFormat: String, CaseIterable, Sendable, Codable {
    case pdf, zpl

    public var contentType: String { self == .pdf ? "application/pdf" : "text/plain; charset=utf-8" }
}

/// A bad label request: a clear message for the CLI and a 422 for the API.
public enum LabelError: Error, CustomStringConvertible, Sendable, Equatable {
    case invalid(String)

    public var description: String {
        switch self {
        case .invalid(let message): message
        }
    }

    /// A tag as an error message shows it: cut at 40 characters, control characters as '?'.
    static func shown(_ text: String) -> String {
        let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
        return String(String.UnicodeScalarView(cut.unicodeScalars.map { $0.properties.generalCategory == .control ? "?" : $0 }))
    }
}

/// A label that was not made: its tag, and why.
public struct LabelRefusal: Sendable, Equatable {
    public var tag: String
    public var reason: String

    public init(tag: String, reason: String) {
        self.tag = tag
        self.reason = reason
    }

    /// What the refusals say, for a person: up to `shown` reasons, then how many more.
    public static func summary(_ refused: [LabelRefusal], shown: Int = 5) -> String {
        let first = refused.prefix(shown).map(\.reason).joined(separator: "; ")
        return refused.count > shown ? first + "; and \(refused.count - shown) more" : first
    }
}

/// One label: the code holds the tag; the tag and the name are printed beside or under it.
/// A command label: a symbol of a reserved text that no asset tag may be, which a station takes as
/// an order rather than a scan (`assets labels --command undo`). The kiosk never records it.
public enum CommandLabel: String, CaseIterable, Sendable {
    /// "Undo last scan": a first scan opens the undo of the station's last scan, a second confirms.
    case undo

    /// The text its symbol holds.
    public var text: String {
        switch self {
        case .undo: "CMD:UNDO"
        }
    }

    /// What the label says under its symbol.
    public var caption: String {
        switch self {
        case .undo: "Undo the last scan (scan twice to confirm)"
        }
    }

    public var label: Label { Label(tag: text, name: caption) }

    /// The command a scanned text is, if it is one (letter case and spaces around it aside).
    public init?(scanned: String) {
        let text = Identifier.foldingFullWidth(scanned).trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
        guard let command = Self.allCases.first(where: { $0.text == text }) else { return nil }
        self = command
    }
}

public struct Label: Sendable, Equatable {
    public var tag: String
    public var name: String

    public init(tag: String, name: String) {
        self.tag = tag
        self.name = name
    }

    static let pointsPerMillimetre = 72 / 25.4
}

/// Draws labels on sheets or a roll as a PDF (symbols as vectors from libzint), or writes ZPL
/// for Zebra printers. Every tag is checked first: a tag that makes a symbol too dense for
/// the label (modules under `LabelSymbology.minimumModule`) is refused with its name.
public struct LabelSheet: Sendable {
    public var symbology: LabelSymbology
    public var layout: LabelLayout

    public init(symbology: LabelSymbology, layout: LabelLayout) {
        self.symbology = symbology
        self.layout = layout
    }

    /// Where the symbol of one label goes, relative to the label's top left, in points.
    struct Placement {
        var x: Double
        var y: Double
        var module: Double
        var barHeight: Double
        /// The text block: left, first baseline, width, and the tag's and name's sizes.
        var textX: Double
        var textY: Double
        var textWidth: Double
        var tagSize: Double
        var nameSize: Double
        /// Lines the name may take below the tag.
        var nameLines: Int
        var centered: Bool
    }

    func placement(_ label: Label) throws -> Placement {
        let geometry = layout.geometry
        let (columns, rows) = try symbology.measure(label.tag)
        let padding = geometry.padding
        let quiet = Double(symbology.quietZone)
        let tagSize = min(11, geometry.labelHeight / 7)
        let nameSize = tagSize * 0.8
        if symbology == .code128 {
            let available = geometry.labelWidth - 2 * padding
            let module = min(1.0 * Label.pointsPerMillimetre, available / (Double(columns) + 2 * quiet))
            try check(label, module: module)
            let barHeight = geometry.labelHeight - 2 * padding - tagSize - nameSize - 6
            let width = module * Double(columns)
            return Placement(
                x: (geometry.labelWidth - width) / 2, y: padding, module: module, barHeight: barHeight, textX: padding,
                textY: padding + barHeight + 2 + tagSize, textWidth: available, tagSize: tagSize, nameSize: nameSize, nameLines: 1,
                centered: true)
        }
        let side = geometry.labelHeight - 2 * padding
        let module = min(1.0 * Label.pointsPerMillimetre, side / (Double(max(columns, rows)) + 2 * quiet))
        try check(label, module: module)
        let drawn = module * Double(max(columns, rows))
        let x = padding + (side - drawn) / 2
        let textX = padding + side + padding
        return Placement(
            x: x, y: padding + (side - module * Double(rows)) / 2, module: module, barHeight: 0, textX: textX,
            textY: geometry.labelHeight / 2 - 2, textWidth: geometry.labelWidth - textX - padding, tagSize: tagSize, nameSize: nameSize,
            nameLines: max(1, Int((geometry.labelHeight / 2 - padding) / (nameSize * 1.2))), centered: false)
    }

    private func check(_ label: Label, module: Double) throws {
        guard module >= symbology.minimumModule else {
            throw LabelError.invalid(
                "tag '\(LabelError.shown(label.tag))' is too long for a \(symbology.rawValue) symbol on \(layout.rawValue) labels: its modules would be "
                    + String(
                        format: "%.2f mm, under the %.2f mm a reader needs", module / Label.pointsPerMillimetre,
                        symbology.minimumModule / Label.pointsPerMillimetre)
                    + (symbology == .code128 ? " (use qr or datamatrix, or a larger layout)" : " (use a larger layout)"))
        }
    }

    /// The labels that can be printed, in the order given, and each one that cannot with why
    /// (a tag too long for the symbol on this layout, an empty tag, a tag code128 cannot hold):
    /// one such tag does not stop the others' labels.
    public func partition(_ labels: [Label]) -> (printable: [Label], refused: [LabelRefusal]) {
        var printable: [Label] = []
        var refused: [LabelRefusal] = []
        printable.reserveCapacity(labels.count)
        for label in labels {
            do {
                guard !label.tag.isEmpty else { throw LabelError.invalid("an asset has an empty tag") }
                _ = try placement(label)
                printable.append(label)
            } catch {
                refused.append(LabelRefusal(tag: label.tag, reason: (error as? LabelError)?.description ?? String(describing: error)))
            }
        }
        return (printable, refused)
    }

    /// The PDF drawn on a thread of its own: a full sheet run is seconds of CPU that must not
    /// hold one of the concurrency pool's threads.
    public func pdfOffPool(_ labels: [Label], to output: @escaping @Sendable (Data) throws -> Void) async throws {
        try await onOwnThread(name: "labels-pdf") { try self.pdf(labels, to: output) }
    }

    /// The ZPL, made on a thread of its own.
    public func zplOffPool(_ labels: [Label]) async throws -> String {
        try await onOwnThread(name: "labels-zpl") { try self.zpl(labels) }
    }

    /// Checks every label (so nothing is written when one cannot be printed).
    public func validate(_ labels: [Label]) throws {
        guard !labels.isEmpty else { throw LabelError.invalid("no labels: no asset matched") }
        for label in labels {
            guard !label.tag.isEmpty else { throw LabelError.invalid("an asset has an empty tag") }
            _ = try placement(label)
        }
    }

    /// The labels as a PDF, in pieces to `output`.
    public func pdf(_ labels: [Label], to output: @escaping (Data) throws -> Void) throws {
        try validate(labels)
        let geometry = layout.geometry
        let canvas = try PDFCanvas(width: geometry.pageWidth, height: geometry.pageHeight, output: output)
        canvas.set(.title, "Asset labels (\(labels.count), \(symbology.rawValue), \(layout.rawValue))")
        canvas.set(.creator, "AuditStation")
        canvas.set(.createDate, "2000-01-01T00:00:00Z")
        canvas.set(.modDate, "2000-01-01T00:00:00Z")
        for (index, label) in labels.enumerated() {
            if index > 0 && index % geometry.perPage == 0 { canvas.nextPage() }
            let origin = geometry.origin(index)
            let place = try placement(label)
            try canvas.symbol(
                symbology, data: label.tag, x: origin.x + place.x, y: origin.y + place.y, module: place.module, barHeight: place.barHeight)
            let align: PDFCanvas.Align = place.centered ? .center : .left
            // The tag in full when it can be: a long one is set smaller (down to 5 pt), then cut.
            let natural = canvas.textWidth(label.tag, font: .bold, size: place.tagSize)
            let tagSize = natural > place.textWidth ? max(5, place.tagSize * place.textWidth / natural) : place.tagSize
            canvas.text(
                label.tag, x: origin.x + place.textX, baseline: origin.y + place.textY, width: place.textWidth, font: .bold,
                size: tagSize, align: align)
            canvas.color(.gray)
            canvas.textBox(
                label.name, x: origin.x + place.textX, top: origin.y + place.textY + 2.5, width: place.textWidth, lines: place.nameLines,
                size: place.nameSize, align: align)
            canvas.color(.black)
        }
        try canvas.finish()
    }

    /// The labels as ZPL II for a 203 dpi Zebra printer: one `^XA … ^XZ` a label, sized to the
    /// layout's label, with `^BQ` (QR), `^BX` (Data Matrix) or `^BC` (Code 128). Text fields are
    /// UTF-8 (`^CI28`) with `^FH` hex escapes for ^, ~, _ and bytes outside printable ASCII.
    public func zpl(_ labels: [Label]) throws -> String {
        try validate(labels)
        let geometry = layout.geometry
        let dotsPerPoint = 203.0 / 72
        func dots(_ points: Double) -> Int { Int((points * dotsPerPoint).rounded()) }
        var text = ""
        for label in labels {
            let place = try placement(label)
            let (columns, rows) = try symbology.measure(label.tag)
            let module = max(1, Int(place.module * dotsPerPoint))
            text += "^XA\n^CI28\n^PW\(dots(geometry.labelWidth))\n^LL\(dots(geometry.labelHeight))\n"
            let data = Self.fieldData(label.tag)
            switch symbology {
            case .qr:
                // ^BQ draws its own quiet zone-free symbol from its top left; magnification is the module in dots.
                text += "^FO\(dots(place.x)),\(dots(place.y))^BQN,2,\(min(10, module))^FH_^FDMA,\(data)^FS\n"
            case .datamatrix:
                text += "^FO\(dots(place.x)),\(dots(place.y))^BXN,\(module),200,\(columns),\(rows)^FH_^FD\(data)^FS\n"
            case .code128:
                text += "^BY\(module)\n^FO\(dots(place.x)),\(dots(place.y))^BCN,\(dots(place.barHeight)),N,N,N^FH_^FD\(data)^FS\n"
            }
            let tagDots = dots(place.tagSize)
            let nameDots = dots(place.nameSize)
            let justify = place.centered ? "C" : "L"
            let width = dots(place.textWidth)
            text += "^FO\(dots(place.textX)),\(dots(place.textY - place.tagSize))^A0N,\(tagDots),\(tagDots)"
            text += "^FB\(width),1,0,\(justify)^FH_^FD\(Self.fieldData(Self.fit(label.tag, width: width, height: tagDots)))^FS\n"
            // The name on as many lines as the PDF gives it (^FB wraps at spaces), cut only past them.
            let lines = place.nameLines
            text += "^FO\(dots(place.textX)),\(dots(place.textY + 3))^A0N,\(nameDots),\(nameDots)"
            text +=
                "^FB\(width),\(lines),0,\(justify)^FH_^FD\(Self.fieldData(Self.fit(label.name, width: width, height: nameDots, lines: lines)))^FS\n"
            text += "^XZ\n"
        }
        return text
    }

    /// Cuts text to what fits on one line of `width` dots in font 0 of `height` dots (about 0.6 of the height a character).
    static func fit(_ text: String, width: Int, height: Int, lines: Int = 1) -> String {
        let fits = max(1, Int(Double(width) / (Double(height) * 0.6))) * max(1, lines)
        return text.count > fits ? String(text.prefix(fits - 1)) + "…" : text
    }

    /// A field's data for `^FH_`: printable ASCII as is, everything else (and ^ ~ _) as _XX; control characters dropped.
    static func fieldData(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars where scalar.properties.generalCategory != .control {
            if scalar.isASCII, scalar != "^", scalar != "~", scalar != "_" {
                out.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 { out += String(format: "_%02X", byte) }
            }
        }
        return out
    }
}
