import Foundation
import InventoryCore

/// `GET /api/v1/audit/{audit_id}/snapshot` (ours): what a connected station copies of an audit,
/// streamed as NDJSON (`application/x-ndjson`), one JSON value a line, so neither side ever
/// holds the whole expected set:
///
/// 1. `{"audit": AuditSession}`: the audit when the stream began.
/// 2. One line per expected asset, in asset id order, a flat array of 14 values:
///    `["e", id, asset_tag, serial_num|null, name, model|null, status, location|null,
///    company|null, country, first_scanned_at|null, station|null, user|null, source|null]`.
///    The asset is as it is now (scans match its current tag and serial number); the last four
///    are its first scan in this audit, all null while it is missing.
/// 3. One line per unexpected entry, in key order, 17 values:
///    `["u", key, identifier, reason, asset_id|null, asset_tag|null, serial_num|null, name|null,
///    model|null, status|null, location|null, company|null, country|null, first_scanned_at,
///    station, user, source]`: the entry's key (`asset:ID` or `id:IDENTIFIER`), what was first
///    scanned, why it is unexpected, the asset as recorded (all null for an unknown
///    identifier), and its first scan.
/// 4. `{"end": {"expected": N, "unexpected": M}}`: the counts sent. A stream without it was cut
///    short, and the station keeps nothing of it.
///
/// Nothing else of the inventory is sent: a scan of any other identifier is decided by the server.
public enum SnapshotLines {
    public static let contentType = "application/x-ndjson"

    public struct Header: Codable, Sendable {
        public var audit: AuditSession
        public init(audit: AuditSession) { self.audit = audit }
    }
    public struct Counts: Codable, Sendable, Equatable {
        public var expected: Int
        public var unexpected: Int
        public init(expected: Int, unexpected: Int) {
            self.expected = expected
            self.unexpected = unexpected
        }
    }
    public struct End: Codable, Sendable {
        public var end: Counts
        public init(end: Counts) { self.end = end }
    }

    /// A line of the stream, as the station reads it.
    public enum Line: Sendable, Equatable {
        case header(AuditSession)
        case expected(AuditSnapshot.Expected)
        case unexpected(AuditSnapshot.Unexpected)
        case end(Counts)
    }

    // MARK: writing

    public static func header(_ audit: AuditSession) throws -> [UInt8] {
        Array(try JSONEncoder.auditStation().encode(Header(audit: audit))) + [newline]
    }

    public static func end(_ counts: Counts) throws -> [UInt8] {
        Array(try JSONEncoder.auditStation().encode(End(end: counts))) + [newline]
    }

    public static func append(_ entry: AuditSnapshot.Expected, to out: inout [UInt8]) {
        let asset = entry.asset
        out.append(contentsOf: #"["e","#.utf8)
        out.append(contentsOf: String(asset.id).utf8)
        for text in [
            asset.assetTag, asset.serialNum, asset.name, asset.model, asset.status.rawValue, asset.location,
            asset.company, asset.country
        ] {
            comma(&out)
            string(text, &out)
        }
        firstScan(entry.firstScan, &out)
        out.append(contentsOf: "]\n".utf8)
    }

    public static func append(_ entry: AuditSnapshot.Unexpected, to out: inout [UInt8]) {
        out.append(contentsOf: #"["u","#.utf8)
        string(entry.key, &out)
        comma(&out)
        string(entry.identifier, &out)
        comma(&out)
        string(entry.reason.rawValue, &out)
        comma(&out)
        if let id = entry.asset?.id { out.append(contentsOf: String(id).utf8) } else { out.append(contentsOf: "null".utf8) }
        let asset = entry.asset
        for text in [
            asset?.assetTag, asset?.serialNum, asset?.name, asset?.model, asset?.status.rawValue, asset?.location,
            asset?.company, asset?.country
        ] {
            comma(&out)
            string(text, &out)
        }
        firstScan(entry.firstScan, &out)
        out.append(contentsOf: "]\n".utf8)
    }

    private static let newline = UInt8(ascii: "\n")

    private static func comma(_ out: inout [UInt8]) { out.append(UInt8(ascii: ",")) }

    private static func firstScan(_ scan: FirstScan?, _ out: inout [UInt8]) {
        for text in [scan.map { ISOTime.string($0.scannedAt) }, scan?.station, scan?.user, scan?.source.rawValue] {
            comma(&out)
            string(text, &out)
        }
    }

    /// A JSON string (or null), escaping what JSON requires.
    static func string(_ text: String?, _ out: inout [UInt8]) {
        guard let text else {
            out.append(contentsOf: "null".utf8)
            return
        }
        out.append(UInt8(ascii: "\""))
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 15)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    // MARK: reading

    /// Reads one line (without its newline).
    public static func parse(_ line: UnsafeRawBufferPointer) throws(SnapshotLineError) -> Line {
        guard let first = line.first(where: { $0 != UInt8(ascii: " ") }) else { throw SnapshotLineError("an empty line") }
        if first == UInt8(ascii: "{") {
            let data = Data(line)
            let decoder = JSONDecoder.auditStation()
            if let header = try? decoder.decode(Header.self, from: data) { return .header(header.audit) }
            if let end = try? decoder.decode(End.self, from: data) { return .end(end.end) }
            throw SnapshotLineError("an object that is neither the audit nor the end")
        }
        var cursor = LineCursor(bytes: line)
        try cursor.expect(UInt8(ascii: "["))
        let kind = try cursor.string()
        switch kind {
        case "e":
            let id = try cursor.nextInt()
            guard let id else { throw SnapshotLineError("an expected asset without an id") }
            let fields = try cursor.strings(8)
            let scan = try cursor.firstScan()
            try cursor.expect(UInt8(ascii: "]"))
            guard let tag = fields[0], let name = fields[2], let statusText = fields[4], let status = AssetStatus(rawValue: statusText),
                let country = fields[7]
            else { throw SnapshotLineError("expected asset \(id) without its tag, name, status or country") }
            return .expected(
                AuditSnapshot.Expected(
                    asset: AssetBrief(
                        id: id, assetTag: tag, serialNum: fields[1], name: name, model: fields[3], status: status,
                        location: fields[5], company: fields[6], country: country),
                    firstScan: scan))
        case "u":
            let head = try cursor.strings(3)
            let id = try cursor.nextInt()
            let fields = try cursor.strings(8)
            let scan = try cursor.firstScan()
            try cursor.expect(UInt8(ascii: "]"))
            guard let key = head[0], let identifier = head[1], let reason = head[2].flatMap(UnexpectedReason.init(rawValue:)), let scan else {
                throw SnapshotLineError("an unexpected entry without its key, identifier, reason or first scan")
            }
            var asset: AssetBrief?
            if let id, let tag = fields[0], let name = fields[2], let status = fields[4].flatMap(AssetStatus.init(rawValue:)),
                let country = fields[7]
            {
                asset = AssetBrief(
                    id: id, assetTag: tag, serialNum: fields[1], name: name, model: fields[3], status: status,
                    location: fields[5], company: fields[6], country: country)
            }
            return .unexpected(AuditSnapshot.Unexpected(key: key, identifier: identifier, reason: reason, asset: asset, firstScan: scan))
        default:
            throw SnapshotLineError("a line of kind '\(kind ?? "null")'")
        }
    }
}

/// A snapshot line this station cannot read.
public struct SnapshotLineError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ what: String) { description = "the snapshot stream has \(what)" }
}

/// Reads the flat JSON arrays of `SnapshotLines`: strings, integers and null.
struct LineCursor {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") || bytes[index] == UInt8(ascii: "\r") {
            index += 1
        }
    }

    mutating func expect(_ byte: UInt8) throws(SnapshotLineError) {
        skipSpaces()
        guard index < bytes.count, bytes[index] == byte else {
            throw SnapshotLineError("a malformed line (wanted '\(Character(UnicodeScalar(byte)))' at byte \(index))")
        }
        index += 1
    }

    /// A `,` then a value.
    mutating func next() throws(SnapshotLineError) { try expect(UInt8(ascii: ",")) }

    mutating func strings(_ count: Int) throws(SnapshotLineError) -> [String?] {
        var values: [String?] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            try next()
            values.append(try string())
        }
        return values
    }

    mutating func firstScan() throws(SnapshotLineError) -> FirstScan? {
        let fields = try strings(4)
        guard let at = fields[0] else { return nil }
        guard let date = ISOTime.parse(at), let station = fields[1], let user = fields[2],
            let source = fields[3].flatMap(ScanSource.init(rawValue:))
        else { throw SnapshotLineError("a first scan it cannot read") }
        return FirstScan(scannedAt: date, station: station, user: user, source: source)
    }

    mutating func null() -> Bool {
        skipSpaces()
        guard index + 4 <= bytes.count, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
            bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    mutating func nextInt() throws(SnapshotLineError) -> Int64? {
        try next()
        if null() { return nil }
        skipSpaces()
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var value: Int64 = 0
        let start = index
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(bytes[index] - 48))
            guard !overflow1, !overflow2 else { throw SnapshotLineError("a number too large") }
            value = sum
            index += 1
        }
        guard index > start else { throw SnapshotLineError("a malformed number at byte \(start)") }
        return negative ? -value : value
    }

    /// A JSON string, or nil for null.
    mutating func string() throws(SnapshotLineError) -> String? {
        if null() { return nil }
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
        guard index < bytes.count else { throw SnapshotLineError("an unterminated string") }
        if bytes[index] == UInt8(ascii: "\"") {
            defer { index += 1 }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }
        var out = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            guard index < bytes.count else { break }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar), index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
                    bytes[index + 1] == UInt8(ascii: "u")
                {
                    index += 2
                    let low = try hex4()
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                out.append(contentsOf: String(Character(UnicodeScalar(scalar) ?? "\u{FFFD}")).utf8)
            default: out.append(escaped)
            }
        }
        throw SnapshotLineError("an unterminated string")
    }

    private mutating func hex4() throws(SnapshotLineError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw SnapshotLineError("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case 48...57: digit = byte - 48
            case 65...70: digit = byte - 55
            case 97...102: digit = byte - 87
            default: throw SnapshotLineError("a bad \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
