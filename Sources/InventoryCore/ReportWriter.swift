import Foundation

/// The `summary` of a report.
public struct ReportSummary: Codable, Sendable, Equatable {
    public var auditId: AuditID
    public var country: String
    public var totalAssets: Int
    public var scannedCount: Int
    public var missingCount: Int
    public var unexpectedCount: Int
    public var completionPercentage: Double
    public var startedAt: Date
    @Nullable public var endedAt: Date?
    public var startedBy: String
    @Nullable public var endedBy: String?
    /// The locations the audit was narrowed to (null: the whole country).
    @Nullable public var locations: [String]?
    /// The expected assets by registered location: found, missing and misplaced.
    public var byLocation: [LocationTally]
    /// Scans by station and by user (voided scans left out).
    public var byStation: [ScanTally]
    public var byUser: [ScanTally]
    /// Scans accepted after the audit had ended, made before it (`LateScans`); null from a
    /// server that does not say.
    @Nullable public var lateScans: Int?

    public init(
        auditId: AuditID, country: String, totalAssets: Int, scannedCount: Int, missingCount: Int, unexpectedCount: Int, completionPercentage: Double,
        startedAt: Date, endedAt: Date? = nil, startedBy: String, endedBy: String? = nil, locations: [String]? = nil, byLocation: [LocationTally],
        byStation: [ScanTally], byUser: [ScanTally], lateScans: Int? = nil
    ) {
        self.auditId = auditId
        self.country = country
        self.totalAssets = totalAssets
        self.scannedCount = scannedCount
        self.missingCount = missingCount
        self.unexpectedCount = unexpectedCount
        self.completionPercentage = completionPercentage
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.startedBy = startedBy
        self.endedBy = endedBy
        self.locations = locations
        self.byLocation = byLocation
        self.byStation = byStation
        self.byUser = byUser
        self.lateScans = lateScans
    }

    public init(_ audit: AuditSession, byLocation: [LocationTally] = [], byStation: [ScanTally] = [], byUser: [ScanTally] = []) {
        self.init(
            auditId: audit.id, country: audit.country, totalAssets: audit.totalAssets, scannedCount: audit.scannedCount,
            missingCount: audit.missingCount, unexpectedCount: audit.unexpectedCount, completionPercentage: audit.completionPercentage,
            startedAt: audit.startedAt, endedAt: audit.endedAt, startedBy: audit.startedBy, endedBy: audit.endedBy,
            locations: audit.locations, byLocation: byLocation, byStation: byStation, byUser: byUser, lateScans: audit.lateScanCount)
    }

    /// The report's file name: `audit-<COUNTRY>-<YYYY-MM-DD>-<first 8 of id>.<ext>`, the date
    /// the audit started (UTC). The CLI, the server and the kiosk all name it so.
    public static func fileName(_ audit: AuditSession, format: ReportFormat) -> String {
        fileName(auditID: audit.id, country: audit.country, startedAt: audit.startedAt, format: format)
    }

    /// The same, from the report's own summary (what the PDF names for its full lists).
    public func fileName(format: ReportFormat) -> String {
        Self.fileName(auditID: auditId, country: country, startedAt: startedAt, format: format)
    }

    static func fileName(auditID: AuditID, country: String, startedAt: Date, format: ReportFormat) -> String {
        let day = String(ISOTime.string(startedAt).prefix(10))
        let id = String(auditID.filter { $0.isLetter || $0.isNumber }.prefix(8))
        return "audit-\(country)-\(day)-\(id).\(format.rawValue)"
    }
}

/// The expected assets of one registered location (nil: none) in a report's summary.
public struct LocationTally: Codable, Sendable, Equatable {
    @Nullable public var location: String?
    public var expected: Int
    public var found: Int
    public var missing: Int
    /// Found, but first scanned at another location.
    public var misplaced: Int

    public init(location: String?, expected: Int, found: Int, misplaced: Int) {
        self.location = location
        self.expected = expected
        self.found = found
        self.missing = expected - found
        self.misplaced = misplaced
    }
}

/// Writes a report row by row into a byte buffer that the caller drains, so a report of a
/// million assets is streamed rather than built in memory.
///
/// CSV: RFC 4180 (CRLF line ends, quoted fields where needed), one header row, one row per
/// asset. A cell a spreadsheet would run as a formula (starting with = + - @ tab or CR) is
/// prefixed with a single quote. The summary is in the JSON report and `audit status`; the CSV
/// stays one plain table so that spreadsheets and scripts load it as is.
/// JSON: `{"summary": {…}, "assets": [{…}, …]}` with every field present (null when empty).
///
/// Each row has what a person needs to walk the list: the asset's fields as the audit recorded
/// them (its type as the inventory has it now), the outcome (`scanned`, `missing`,
/// `unexpected`, or `misplaced`: found, first at `found_location`, away from its registered
/// `location`), the scans that count and those voided, the first scan's who, when, where and
/// how, and, when that scan reached the server after the audit had ended, when it arrived
/// (`arrived_late_at`, `LateScans`).
public struct ReportWriter {
    public static let columns = [
        "identifier", "asset_tag", "serial_num", "name", "model", "status", "location", "country", "asset_type", "company",
        "outcome", "reason", "found_location", "first_scanned_at", "scan_count", "voided_scans", "station", "user", "source",
        "arrived_late_at"
    ]

    public let format: ReportFormat
    public private(set) var buffer: [UInt8] = []
    private var rows = 0

    public init(format: ReportFormat, summary: ReportSummary) throws {
        self.format = format
        buffer.reserveCapacity(1 << 20)
        switch format {
        case .csv:
            buffer += Array(Self.columns.joined(separator: ",").utf8) + [13, 10]
        case .pdf:
            throw InventoryError.unavailable("the PDF report is drawn from the JSON report's rows (AuditReportPDF), not written by the store")
        case .json:
            let summaryJSON = try String(decoding: JSONEncoder.auditStation().encode(summary), as: UTF8.self)
            buffer += Array("{\"summary\":\(summaryJSON),\"assets\":[".utf8)
        }
    }

    public mutating func append(_ row: AuditAsset) {
        let outcome = row.misplaced == true ? AuditOutcome.misplaced : row.outcome
        let cells: [String?] = [
            row.identifier, row.assetTag, row.serialNum, row.name, row.model, row.status?.rawValue, row.location, row.country, nil,
            row.company, outcome.rawValue, row.reason?.rawValue, row.foundLocation, row.firstScannedAt.map(ISOTime.string),
            String(row.scanCount), "0", row.station, row.user, row.source?.rawValue, row.arrivedLateAt.map(ISOTime.string)
        ]
        beginRow()
        for cell in cells {
            if var cell { cell.withUTF8 { appendCell(UnsafeRawBufferPointer($0)) } } else { appendCell(nil) }
        }
        endRow()
    }

    private var column = 0

    /// Starts a row; give it one `appendCell` per column in `columns` order, then `endRow`.
    /// This is the fast path for stores that hand over raw column bytes.
    public mutating func beginRow() {
        column = 0
        if format == .json {
            if rows > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(UInt8(ascii: "{"))
        }
    }

    /// The next cell's UTF-8 bytes, or nil when empty. The scan_count column holds digits.
    public mutating func appendCell(_ bytes: UnsafeRawBufferPointer?) {
        defer { column += 1 }
        switch format {
        case .csv:
            if column > 0 { buffer.append(UInt8(ascii: ",")) }
            if let bytes { CSV.appendCell(bytes, to: &buffer) }
        case .json, .pdf:
            if column > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer += Self.jsonKeys[column]
            if let bytes {
                if Self.numberColumns.contains(column) { buffer.append(contentsOf: bytes) } else { JSONText.appendString(bytes, to: &buffer) }
            } else {
                buffer += Self.jsonNull
            }
        }
    }

    public mutating func endRow() {
        buffer += format == .csv ? [13, 10] : [UInt8(ascii: "}")]
        rows += 1
    }

    /// scan_count and voided_scans hold digits, written as JSON numbers.
    private static let numberColumns: Set<Int> = [14, 15]
    private static let jsonNull = Array("null".utf8)
    private static let jsonKeys: [[UInt8]] = columns.map { Array("\"\($0)\":".utf8) }

    /// The columns of the accessories' part (`AccessoryTally`).
    public static let accessoryColumns = ["accessory_tag", "name", "location", "expected", "counted", "difference"]

    /// Closes the document; call once after the last row. `accessories`, the audit's counted
    /// accessories, follow the assets: in JSON as `"accessories": [{tag, name, location,
    /// expected, counted, difference}]` (always present, empty when none); in CSV, only when
    /// there are any, as a second table after one empty line, with its own header row
    /// (`accessoryColumns`), so a report of an audit without accessories stays one table.
    public mutating func finish(accessories: [AccessoryTally] = []) {
        switch format {
        case .json, .pdf:
            let list = (try? JSONEncoder.auditStation().encode(accessories.map(ReportAccessory.init))) ?? Data("[]".utf8)
            buffer += Array("],\"accessories\":".utf8) + Array(list) + Array("}\n".utf8)
        case .csv:
            guard !accessories.isEmpty else { return }
            buffer += [13, 10] + Array(Self.accessoryColumns.joined(separator: ",").utf8) + [13, 10]
            for item in accessories {
                for (index, cell) in [item.tag, item.name, item.location ?? ""].enumerated() {
                    if index > 0 { buffer.append(UInt8(ascii: ",")) }
                    CSV.appendCell(cell, to: &buffer)
                }
                // Numbers as they are: a difference of -1 is a number, not a formula to defuse.
                buffer += Array(",\(item.expected),\(item.counted),\(item.difference)".utf8) + [13, 10]
            }
        }
    }

    /// Hands over the buffered bytes and empties the buffer.
    public mutating func drain() -> Data {
        defer { buffer.removeAll(keepingCapacity: true) }
        return Data(buffer)
    }
}

public enum CSV {
    /// Appends one RFC 4180 cell, quoted when it holds a comma, quote or line break, and
    /// defused when a spreadsheet would read it as a formula.
    public static func appendCell(_ text: String, to buffer: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendCell(UnsafeRawBufferPointer($0), to: &buffer) }
    }

    public static func appendCell(_ bytes: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
        let formula = bytes.first.map { [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 9, 13].contains($0) } ?? false
        let needsQuotes = bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
        if needsQuotes { buffer.append(UInt8(ascii: "\"")) }
        if formula { buffer.append(UInt8(ascii: "'")) }
        if needsQuotes {
            for byte in bytes {
                if byte == UInt8(ascii: "\"") { buffer.append(byte) }
                buffer.append(byte)
            }
            buffer.append(UInt8(ascii: "\""))
        } else {
            buffer.append(contentsOf: bytes)
        }
    }
}

public enum JSONText {
    /// Appends a JSON string literal with the escapes RFC 8259 requires.
    public static func appendString(_ text: String, to buffer: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendString(UnsafeRawBufferPointer($0), to: &buffer) }
    }

    public static func appendString(_ bytes: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        if !bytes.contains(where: { $0 < 32 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            buffer.append(contentsOf: bytes)
            buffer.append(UInt8(ascii: "\""))
            return
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): buffer += [92, 34]
            case UInt8(ascii: "\\"): buffer += [92, 92]
            case 10: buffer += [92, UInt8(ascii: "n")]
            case 13: buffer += [92, UInt8(ascii: "r")]
            case 9: buffer += [92, UInt8(ascii: "t")]
            case 0..<32:
                let hex = Array("0123456789abcdef".utf8)
                buffer += [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
