import Foundation
import InventoryCore

/// The PDF an auditor signs: the summary with a chart, the per-location and per-station/user
/// tables, the missing assets grouped by location, the unexpected and misplaced lists, and
/// sign-off lines; every page carries the audit id and "Page n of N".
///
/// It is drawn from the service's JSON report, streamed: the rows the PDF lists go to a
/// temporary file as they arrive, with 16 bytes a row in memory. Every row is one line (long
/// text is cut with an ellipsis), so the pages are counted before anything is drawn, and the
/// drawing is one pass. The same audit gives the same bytes (the document's dates are the
/// audit's), from the CLI and from the API.
///
/// By default it lists at most `shortListLimit` missing assets a location, then how many more
/// there are and the CSV report that lists them all (a 1,000,000-asset audit would otherwise
/// take 16,000 pages nobody signs); `full` lists every one. The voided scans (count, and each
/// with its reason and who voided it) follow the misplaced list, at most `shortListLimit` of
/// them unless `full`.
public enum AuditReportPDF {
    /// The most missing assets listed a location, and voided scans listed, unless `full`.
    public static let shortListLimit = 500

    public static func write(
        auditID: AuditID, service: any AuditService, full: Bool = false, to output: @escaping @Sendable (Data) throws -> Void
    ) async throws {
        // Before the report: a void made while the report is written is then not listed in a
        // report whose numbers left it out (numbers never count a voided scan anyway).
        let voids: (total: Int, scans: [ScanRecord])?
        do {
            voids = try await service.voidedScans(auditID: auditID, limit: full ? Int.max : shortListLimit)
        } catch InventoryError.unavailable {
            voids = nil
        }
        let spool = try ReportSpool()
        let reader = ReportJSONReader { cells in try spool.add(&cells) }
        // The service writes the JSON (reading its database) while a thread of our own takes it
        // apart into the spool: the two halves run on the two cores at once.
        let chunks = Handoff<Data>(capacity: 8)
        async let parsed: Void = try onOwnThread(name: "report-reader") {
            while let data = chunks.take() {
                do { try reader.feed(data) } catch {
                    chunks.fail(error)
                    return
                }
            }
        }
        do {
            try await service.report(auditID: auditID, format: .json) { data in try await chunks.send(data) }
            chunks.close()
        } catch {
            chunks.fail(error)
            try? await parsed
            throw error
        }
        try await parsed
        if let error = chunks.error { throw error }
        try reader.finish()
        try spool.flush()
        guard let summary = reader.summary else { throw DocumentError("the report had no summary") }
        // The accessories the audit counted (none from a service that does not count them).
        let accessories = (try? await service.accessories(auditID: auditID)) ?? []
        let document = ReportDocument(
            summary: summary, spool: spool, voids: voids, missingLimit: full ? nil : shortListLimit, accessories: accessories)
        let pages = try document.render(on: nil)
        let canvas = try PDFCanvas(width: ReportDocument.pageWidth, height: ReportDocument.pageHeight, output: output)
        let date = ISOTime.string(summary.endedAt ?? summary.startedAt)
        canvas.set(.title, "Audit report \(summary.country) \(summary.auditId)")
        canvas.set(.subject, "Inventory audit of \(summary.country)")
        canvas.set(.creator, "AuditStation")
        canvas.set(.createDate, date)
        canvas.set(.modDate, date)
        // This task's thread of its own lays out the pages while another draws them.
        let queue = PageQueue()
        async let drawn: Void = queue.play(onto: canvas)
        do {
            _ = try await onOwnThread(name: "report-layout") {
                let count = try document.render(on: queue, pageCount: pages)
                try queue.close()
                return count
            }
        } catch {
            queue.fail(error)
            try? await drawn
            throw error
        }
        try await drawn
    }
}

/// Lays out and draws the report. With no canvas it only counts the pages. One thread at a time uses it.
final class ReportDocument: @unchecked Sendable {
    static let pageWidth = 595.28
    static let pageHeight = 841.89
    static let margin = 40.0
    static let rowHeight = 11.5
    static let bodySize = 7.5
    let summary: ReportSummary
    let spool: ReportSpool
    private var canvas: PageQueue?
    private var page = 1
    private var pageCount = 0
    private var y = 0.0
    /// Drawn at the top of a page that continues a table (its header again).
    private var continuation: (() -> Void)?
    private let top = ReportDocument.margin + 24
    private let bottom = ReportDocument.pageHeight - ReportDocument.margin - 18
    private let width = ReportDocument.pageWidth - 2 * ReportDocument.margin
    private var left: Double { Self.margin }
    private var missingGroups: [(name: String?, entries: ArraySlice<ReportSpool.Entry>)] = []
    /// The voided scans (nil: the service keeps no trail) and the most missing listed a location (nil: all).
    let voids: (total: Int, scans: [ScanRecord])?
    let missingLimit: Int?
    /// The accessories the audit counted: a table of their own, only when there are any.
    let accessories: [AccessoryTally]

    init(
        summary: ReportSummary, spool: ReportSpool, voids: (total: Int, scans: [ScanRecord])? = nil, missingLimit: Int? = nil,
        accessories: [AccessoryTally] = []
    ) {
        self.summary = summary
        self.spool = spool
        self.voids = voids
        self.missingLimit = missingLimit
        self.accessories = accessories
        missingGroups = spool.groupMissing()
    }

    /// Answers the number of pages.
    func render(on canvas: PageQueue?, pageCount: Int = 0) throws -> Int {
        self.canvas = canvas
        self.pageCount = pageCount
        page = 1
        continuation = nil
        y = top
        chrome()
        title()
        summaryBlock()
        tallies()
        try missingList()
        try unexpectedList()
        try misplacedList()
        voidList()
        accessoryList()
        signOff()
        return page
    }

    // MARK: pages

    private func chrome() {
        guard let canvas else { return }
        canvas.color(.gray)
        canvas.text(
            "AuditStation audit report · \(summary.country) · audit \(summary.auditId)", x: left, baseline: Self.margin, width: width,
            size: 7.5)
        canvas.color(.rule)
        canvas.line(from: (left, Self.margin + 5), to: (left + width, Self.margin + 5))
        canvas.line(from: (left, bottom + 6), to: (left + width, bottom + 6))
        canvas.color(.gray)
        canvas.text("Audit \(summary.auditId)", x: left, baseline: bottom + 16, width: width * 0.7, size: 7.5)
        canvas.text("Page \(page) of \(pageCount)", x: left, baseline: bottom + 16, width: width, size: 7.5, align: .right)
        canvas.color(.black)
    }

    private func newPage() {
        canvas?.nextPage()
        page += 1
        y = top
        chrome()
        continuation?()
    }

    /// Starts a new page unless `height` fits below.
    private func ensure(_ height: Double) {
        if y + height > bottom { newPage() }
    }

    // MARK: blocks

    private func title() {
        let height = 86.0
        defer { y += height }
        guard let canvas else { return }
        canvas.text("Audit report", x: left, baseline: y + 16, font: .bold, size: 18)
        canvas.text(
            summary.endedAt == nil ? "RUNNING: not final" : "Ended", x: left, baseline: y + 16, width: width, font: .bold, size: 10,
            align: .right)
        let scope = summary.locations.map { "locations " + $0.joined(separator: ", ") } ?? "the whole country"
        let lines: [(String, String)] = [
            ("Audit", summary.auditId), ("Country", "\(summary.country), \(scope)"),
            ("Started", "\(ISOTime.string(summary.startedAt)) by \(summary.startedBy)"),
            ("Ended", summary.endedAt.map { "\(ISOTime.string($0)) by \(summary.endedBy ?? "")\(Self.late(summary.lateScans))" } ?? "not yet"),
            ("Duration", Self.duration(from: summary.startedAt, to: summary.endedAt))
        ]
        var line = y + 32
        for (label, value) in lines {
            canvas.color(.gray)
            canvas.text(label, x: left, baseline: line, width: 60, size: 8.5)
            canvas.color(.black)
            canvas.text(value, x: left + 62, baseline: line, width: width - 62, size: 8.5)
            line += 11
        }
    }

    /// Scans that arrived after the end, made before it, counted (`LateScans`).
    static func late(_ count: Int?) -> String {
        switch count ?? 0 {
        case 0: ""
        case 1: "; 1 scan arrived after the end (made before it, counted)"
        case let n: "; \(n) scans arrived after the end (made before it, counted)"
        }
    }

    static func duration(from start: Date, to end: Date?) -> String {
        guard let end else { return "running" }
        let seconds = max(0, Int(end.timeIntervalSince(start)))
        return String(format: "%dh %02dm %02ds", seconds / 3600, seconds / 60 % 60, seconds % 60)
    }

    private var misplacedCount: Int { summary.byLocation.reduce(0) { $0 + $1.misplaced } }

    private func summaryBlock() {
        let height = 140.0
        ensure(height)
        defer { y += height }
        guard let canvas else { return }
        heading("Summary", at: y)
        let found = summary.scannedCount
        let misplaced = misplacedCount
        let slices: [(String, Int, RGB)] = [
            ("Found in place", max(0, found - misplaced), RGB(0.18, 0.55, 0.34)),
            ("Found, misplaced", misplaced, RGB(0.93, 0.62, 0.13)),
            ("Missing", summary.missingCount, RGB(0.80, 0.22, 0.20)),
            ("Unexpected", summary.unexpectedCount, RGB(0.35, 0.38, 0.75))
        ]
        let numbers: [(String, String)] = [
            ("Expected assets", "\(summary.totalAssets)"), ("Found", "\(found)"), ("Missing", "\(summary.missingCount)"),
            ("Unexpected", "\(summary.unexpectedCount)"), ("Misplaced (found elsewhere)", "\(misplaced)"),
            ("Completion", Completion.text(summary.completionPercentage))
        ]
        var line = y + 34
        for (label, value) in numbers {
            canvas.text(label, x: left, baseline: line, width: 150, size: 9)
            canvas.text(value, x: left + 150, baseline: line, width: 70, font: .bold, size: 9, align: .right)
            canvas.color(.rule)
            canvas.line(from: (left, line + 4), to: (left + 220, line + 4), width: 0.3)
            canvas.color(.black)
            line += 17
        }
        // The donut: found in place, misplaced, missing and unexpected, with a legend.
        let centerX = left + 330
        let centerY = y + 82
        let total = slices.reduce(0) { $0 + $1.1 }
        var start = 0.0
        if total == 0 {
            canvas.color(.rule)
            canvas.ringSegment(centerX: centerX, centerY: centerY, outer: 52, inner: 30, from: 0, to: 1)
        }
        for (_, count, color) in slices where count > 0 && total > 0 {
            let end = start + Double(count) / Double(total)
            canvas.color(color)
            canvas.ringSegment(centerX: centerX, centerY: centerY, outer: 52, inner: 30, from: start, to: end)
            start = end
        }
        canvas.color(.black)
        canvas.text(
            Completion.text(summary.completionPercentage), x: centerX - 30, baseline: centerY + 4, width: 60, font: .bold, size: 11,
            align: .center)
        var legend = y + 52
        for (label, count, color) in slices {
            canvas.color(color)
            canvas.fill(x: left + 400, y: legend - 7, width: 8, height: 8)
            canvas.color(.black)
            canvas.text("\(label): \(count)", x: left + 412, baseline: legend, width: width - 412, size: 8.5)
            legend += 14
        }
    }

    private func heading(_ text: String, at top: Double) {
        guard let canvas else { return }
        canvas.text(text, x: left, baseline: top + 15, width: width, font: .bold, size: 12)
    }

    /// A section heading kept with the first `keep` points below it.
    private func section(_ text: String, keep: Double) {
        continuation = nil
        ensure(26 + keep)
        heading(text, at: y)
        y += 24
    }

    private func tableHeader(_ columns: [TableColumn]) {
        let height = Self.rowHeight + 3
        ensure(height + Self.rowHeight)
        if let canvas {
            canvas.color(.shade)
            canvas.fill(x: left, y: y, width: width, height: height)
            canvas.color(.black)
            canvas.row(columns.map(\.title), columns: columns, x: left, baseline: y + 9.5, font: .bold, size: Self.bodySize)
        }
        y += height
    }

    /// A table whose header comes back on each page it continues to; `title` is its heading then.
    private func table(_ columns: [TableColumn], continued title: String) {
        tableHeader(columns)
        continuation = { [unowned self] in
            if let canvas {
                canvas.color(.gray)
                canvas.text("\(title) (continued)", x: left, baseline: y + 9, width: width, font: .bold, size: 8.5)
                canvas.color(.black)
            }
            y += 14
            tableHeader(columns)
        }
    }

    private func textRow(_ cells: [String?], _ columns: [TableColumn]) {
        ensure(Self.rowHeight)
        canvas?.row(cells, columns: columns, x: left, baseline: y + 8.5, size: Self.bodySize)
        y += Self.rowHeight
    }

    private func none(_ text: String) {
        ensure(Self.rowHeight + 4)
        if let canvas {
            canvas.color(.gray)
            canvas.text(text, x: left + 2, baseline: y + 9, width: width, size: 8.5)
            canvas.color(.black)
        }
        y += Self.rowHeight + 4
    }

    private func tallies() {
        let locationColumns = [
            TableColumn("Location", width - 4 * 70), TableColumn("Expected", 70, .right), TableColumn("Found", 70, .right),
            TableColumn("Missing", 70, .right), TableColumn("Misplaced", 70, .right)
        ]
        section("By location", keep: 3 * Self.rowHeight)
        table(locationColumns, continued: "By location")
        if summary.byLocation.isEmpty { none("No expected assets.") }
        for tally in summary.byLocation {
            textRow(
                [tally.location ?? "(no location)", "\(tally.expected)", "\(tally.found)", "\(tally.missing)", "\(tally.misplaced)"],
                locationColumns)
        }
        for (title, tallies, noun) in [("By station", summary.byStation, "Station"), ("By user", summary.byUser, "User")] {
            let columns = [
                TableColumn(noun, width - 3 * 80), TableColumn("Scans", 80, .right), TableColumn("Found first", 80, .right),
                TableColumn("Unexpected first", 80, .right)
            ]
            y += 6
            section(title, keep: 3 * Self.rowHeight)
            table(columns, continued: title)
            if tallies.isEmpty { none("No scans.") }
            for tally in tallies { textRow([tally.name, "\(tally.scans)", "\(tally.found)", "\(tally.unexpected)"], columns) }
        }
        continuation = nil
    }

    /// Draws the spooled rows one line each.
    private func rows(
        _ entries: ArraySlice<ReportSpool.Entry>, _ columns: [TableColumn], cells: @escaping ([UnsafeRawBufferPointer?]) -> [UnsafeRawBufferPointer?]
    ) throws {
        for entry in entries {
            ensure(Self.rowHeight)
            if let canvas {
                let baseline = y + 8.5
                try spool.read(entry) { kept in
                    canvas.row(cells(kept), columns: columns, x: left, baseline: baseline, size: Self.bodySize)
                }
            }
            y += Self.rowHeight
        }
    }

    private typealias Field = ReportSpool.Field

    private func missingList() throws {
        let columns = [
            TableColumn("Asset tag", 95), TableColumn("Serial", 90), TableColumn("Name", width - 95 - 90 - 100 - 70),
            TableColumn("Model", 100), TableColumn("Status", 70)
        ]
        y += 6
        section("Missing assets (\(spool.missing.count)), by location", keep: 40)
        if missingGroups.isEmpty { none("None: every expected asset was found.") }
        for group in missingGroups {
            let name = group.name ?? "(no location)"
            ensure(18 + Self.rowHeight * 2 + 3)
            if let canvas {
                canvas.text("Location: \(name)", x: left, baseline: y + 12, width: width - 90, font: .bold, size: 9.5)
                canvas.text("\(group.entries.count) missing", x: left, baseline: y + 12, width: width, size: 8.5, align: .right)
            }
            y += 18
            table(columns, continued: "Missing at \(name)")
            let listed = missingLimit.map { group.entries.prefix($0) } ?? group.entries
            try rows(listed, columns) { kept in
                [
                    kept[Field.assetTag.rawValue] ?? kept[Field.identifier.rawValue], kept[Field.serial.rawValue], kept[Field.name.rawValue],
                    kept[Field.model.rawValue], kept[Field.status.rawValue]
                ]
            }
            continuation = nil
            if listed.count < group.entries.count {
                none(
                    "… and \(group.entries.count - listed.count) more missing at \(name), not listed here: "
                        + "the CSV report \(summary.fileName(format: .csv)) lists them all.")
            }
            y += 4
        }
    }

    private func unexpectedList() throws {
        // "Belongs at": where an unexpected asset is registered (another country's, or one
        // outside the audit's locations), so it can be sent back; empty for unknown tags.
        let columns = [
            TableColumn("Identifier", 82), TableColumn("Name", width - 82 - 58 - 64 - 64 - 88 - 52 - 50), TableColumn("Reason", 58),
            TableColumn("Belongs at", 64), TableColumn("Scanned at", 64), TableColumn("First scan", 88), TableColumn("Station", 52),
            TableColumn("User", 50)
        ]
        y += 6
        section("Unexpected (\(spool.unexpected.count))", keep: 40)
        if spool.unexpected.isEmpty {
            none("None.")
            return
        }
        table(columns, continued: "Unexpected")
        try rows(spool.unexpected[...], columns) { kept in
            [
                kept[Field.identifier.rawValue], kept[Field.name.rawValue] ?? self.unknownText, kept[Field.reason.rawValue],
                kept[Field.location.rawValue], kept[Field.foundLocation.rawValue], kept[Field.firstScannedAt.rawValue],
                kept[Field.station.rawValue], kept[Field.user.rawValue]
            ]
        }
        continuation = nil
    }

    /// Shown as the name of an unexpected identifier that no asset has.
    private let unknownBytes: UnsafeMutableRawBufferPointer = {
        let text = Array("(no asset has this identifier)".utf8)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: text.count, alignment: 1)
        buffer.copyBytes(from: text)
        return buffer
    }()
    private var unknownText: UnsafeRawBufferPointer { UnsafeRawBufferPointer(unknownBytes) }

    deinit { unknownBytes.deallocate() }

    private func misplacedList() throws {
        let columns = [
            TableColumn("Asset tag", 90), TableColumn("Name", width - 90 - 90 - 90 - 92 - 65), TableColumn("Registered at", 90),
            TableColumn("Found at", 90), TableColumn("First scan", 92), TableColumn("Station", 65)
        ]
        y += 6
        section("Misplaced: found away from their location (\(spool.misplaced.count))", keep: 40)
        if spool.misplaced.isEmpty {
            none("None.")
            return
        }
        table(columns, continued: "Misplaced")
        try rows(spool.misplaced[...], columns) { kept in
            [
                kept[Field.assetTag.rawValue], kept[Field.name.rawValue], kept[Field.location.rawValue], kept[Field.foundLocation.rawValue],
                kept[Field.firstScannedAt.rawValue], kept[Field.station.rawValue]
            ]
        }
        continuation = nil
    }

    /// The voided scans: not counted in any number above, each with why and by whom.
    private func voidList() {
        let columns = [
            TableColumn("Identifier", 90), TableColumn("Scanned at", 92), TableColumn("Station", 60), TableColumn("Voided by", 60),
            TableColumn("Voided at", 92), TableColumn("Reason", width - 90 - 92 - 60 - 60 - 92)
        ]
        y += 6
        guard let voids else {
            section("Voided scans", keep: 20)
            none("Not known: this service keeps no scan trail.")
            return
        }
        section("Voided scans (\(voids.total)): not counted above", keep: 40)
        if voids.total == 0 {
            none("None.")
            return
        }
        table(columns, continued: "Voided scans")
        for scan in voids.scans {
            let void = scan.voided
            textRow(
                [scan.identifier, ISOTime.string(scan.scannedAt), scan.station, void?.user, void.map { ISOTime.string($0.voidedAt) }, void?.reason],
                columns)
        }
        continuation = nil
        if voids.scans.count < voids.total {
            none("… and \(voids.total - voids.scans.count) more voided scans: the audit's scan trail lists them all.")
        }
    }

    /// The accessories counted: apart from the assets' numbers, each with expected, counted and
    /// the difference.
    private func accessoryList() {
        guard !accessories.isEmpty else { return }
        let columns = [
            TableColumn("Tag", 90), TableColumn("Name", 150), TableColumn("Location", 110), TableColumn("Expected", 60),
            TableColumn("Counted", 60), TableColumn("Difference", width - 90 - 150 - 110 - 60 - 60)
        ]
        y += 6
        section("Accessories counted (\(accessories.count)): not in the asset numbers above", keep: 40)
        table(columns, continued: "Accessories counted")
        for item in accessories {
            let difference = item.difference > 0 ? "+\(item.difference)" : String(item.difference)
            textRow([item.tag, item.name, item.location, String(item.expected), String(item.counted), difference], columns)
        }
        continuation = nil
    }

    private func signOff() {
        let height = 140.0
        y += 8
        continuation = nil
        ensure(height)
        defer { y += height }
        guard let canvas else { return }
        heading("Sign-off", at: y)
        canvas.text(
            "We have checked this report of audit \(summary.auditId) (\(summary.country)) and agree with its findings.", x: left,
            baseline: y + 32, width: width, size: 8.5)
        var line = y + 58
        for role in ["Auditor", "Supervisor"] {
            canvas.text(role, x: left, baseline: line + 18, font: .bold, size: 9.5)
            let fields: [(String, Double, Double)] = [("Name", 70, 200), ("Signature", 280, 130), ("Date", 420, width - 420)]
            for (label, x, fieldWidth) in fields {
                canvas.color(.black)
                canvas.line(from: (left + x, line + 20), to: (left + x + fieldWidth - 10, line + 20), width: 0.6)
                canvas.color(.gray)
                canvas.text(label, x: left + x, baseline: line + 29, size: 7.5)
            }
            canvas.color(.black)
            line += 40
        }
    }
}
