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
    public var endedAt: Date?
    public var startedBy: String
    public var endedBy: String?

    private enum CodingKeys: String, CodingKey {
        case auditId, country, totalAssets, scannedCount, missingCount, unexpectedCount, completionPercentage
        case startedAt, endedAt, startedBy, endedBy
    }

    /// Every field is present; a running audit has `ended_at` and `ended_by` as null.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(auditId, forKey: .auditId)
        try container.encode(country, forKey: .country)
        try container.encode(totalAssets, forKey: .totalAssets)
        try container.encode(scannedCount, forKey: .scannedCount)
        try container.encode(missingCount, forKey: .missingCount)
        try container.encode(unexpectedCount, forKey: .unexpectedCount)
        try container.encode(completionPercentage, forKey: .completionPercentage)
        try container.encode(startedAt, forKey: .startedAt)
        try container.encode(endedAt, forKey: .endedAt)
        try container.encode(startedBy, forKey: .startedBy)
        try container.encode(endedBy, forKey: .endedBy)
    }

    public init(_ audit: AuditSession) {
        auditId = audit.id
        country = audit.country
        totalAssets = audit.totalAssets
        scannedCount = audit.scannedCount
        missingCount = audit.missingCount
        unexpectedCount = audit.unexpectedCount
        completionPercentage = audit.completionPercentage
        startedAt = audit.startedAt
        endedAt = audit.endedAt
        startedBy = audit.startedBy
        endedBy = audit.endedBy
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
public struct ReportWriter {
    public static let columns = [
        "identifier", "asset_tag", "serial_num", "name", "outcome", "reason",
        "first_scanned_at", "scan_count", "station", "user", "source"
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
        case .json:
            let summaryJSON = try String(decoding: JSONEncoder.auditStation().encode(summary), as: UTF8.self)
            buffer += Array("{\"summary\":\(summaryJSON),\"assets\":[".utf8)
        }
    }

    public mutating func append(_ row: AuditAsset) {
        let cells: [String?] = [
            row.identifier, row.assetTag, row.serialNum, row.name, row.outcome.rawValue, row.reason?.rawValue,
            row.firstScannedAt.map(ISOTime.string), String(row.scanCount), row.station, row.user, row.source?.rawValue
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
        case .json:
            if column > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer += Self.jsonKeys[column]
            if let bytes {
                if column == Self.scanCountColumn { buffer.append(contentsOf: bytes) } else { JSONText.appendString(bytes, to: &buffer) }
            } else {
                buffer += Self.jsonNull
            }
        }
    }

    public mutating func endRow() {
        buffer += format == .csv ? [13, 10] : [UInt8(ascii: "}")]
        rows += 1
    }

    private static let scanCountColumn = 7
    private static let jsonNull = Array("null".utf8)
    private static let jsonKeys: [[UInt8]] = columns.map { Array("\"\($0)\":".utf8) }

    /// Closes the document (JSON); call once after the last row.
    public mutating func finish() {
        if format == .json { buffer += Array("]}\n".utf8) }
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
