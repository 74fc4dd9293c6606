import Foundation

/// An asset import file, as the tests hand one to `assets import`, the API or a store: a header,
/// then rows, built in order.
///
///     CSVFixture("asset_tag", "serial_num", "name", "country")
///         .assets(0..<30_000, tag: "L-", serial: "LSN-", countries: ["SG", "MY"])
///         .replacing([7: "L-X7,,Laptop,XX,"])      // a bad row on line 7 (the header is line 1)
///         .row("X-1", "two\nlines", "MY")           // fields quoted as RFC 4180 needs
///         .text
///
/// Generated assets fill the header's columns they know (`asset_tag`, `serial_num`, `name`,
/// `model`, `status`, `country`, `location`) and leave the others empty.
public struct CSVFixture: Sendable {
    public let columns: [String]
    /// The records after the header, each as written (a quoted field may hold a line break).
    public private(set) var records: [String] = []

    public init(_ columns: String...) {
        self.init(columns: columns)
    }

    public init(columns: [String]) {
        self.columns = columns
    }

    /// The header, every record, a line break after each.
    public var text: String {
        var text = columns.joined(separator: ",") + "\n"
        text.reserveCapacity(records.count * 48)
        for record in records {
            text += record
            text += "\n"
        }
        return text
    }

    /// `field` as a CSV field: quoted, with its quotes doubled, when it holds a comma, a quote or
    /// a line break.
    public static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// One record of `fields`, each quoted as it needs.
    public func row(_ fields: String...) -> CSVFixture {
        adding([fields.map(Self.quoted).joined(separator: ",")])
    }

    /// One record per item (a number, a test's row), its fields from `fields`, each quoted as it needs.
    public func rows<Item>(_ items: some Sequence<Item>, _ fields: (Item) -> [String]) -> CSVFixture {
        adding(items.map { fields($0).map(Self.quoted).joined(separator: ",") })
    }

    /// A line as it is, e.g. an empty line or one that opens a quote it never closes.
    public func line(_ raw: String) -> CSVFixture {
        adding([raw])
    }

    /// One asset per number n: tag `tag`n, serial `serial`n (empty without `serial`), the name
    /// `name(n)`, the country `countries[n % countries.count]`, the location
    /// `locations[n % locations.count]`, `model` and `status`.
    public func assets(
        _ numbers: some Sequence<Int>, tag: String, serial: String? = nil, name: (Int) -> String = { "Laptop \($0)" },
        model: String = "", status: String = "IN_STOCK", countries: [String] = ["SG"], locations: [String] = [""]
    ) -> CSVFixture {
        rows(numbers) { n in
            columns.map { column in
                switch column {
                case "asset_tag": "\(tag)\(n)"
                case "serial_num": serial.map { "\($0)\(n)" } ?? ""
                case "name": name(n)
                case "model": model
                case "status": status
                case "country": countries[n % countries.count]
                case "location": locations[n % locations.count]
                default: ""
                }
            }
        }
    }

    /// The records on the given lines (the header is line 1, the first record line 2) replaced
    /// by the lines given as they are: bad rows at known places.
    public func replacing(_ lines: [Int: String]) -> CSVFixture {
        var copy = self
        for (line, raw) in lines {
            precondition(line >= 2 && line - 2 < records.count, "line \(line) is not a record of \(records.count)")
            copy.records[line - 2] = raw
        }
        return copy
    }

    /// Writes `text` to `url`.
    public func write(to url: URL) throws {
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// `text` as a stream of blocks of `size` bytes, as a file read in blocks arrives.
    public func blocks(size: Int = 4096) -> AsyncThrowingStream<[UInt8], any Error> {
        Self.blocks(text, size: size)
    }

    /// Any text as a stream of blocks of `size` bytes.
    public static func blocks(_ text: String, size: Int = 4096) -> AsyncThrowingStream<[UInt8], any Error> {
        let bytes = Array(text.utf8)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self)
        for start in stride(from: 0, to: bytes.count, by: size) { continuation.yield(Array(bytes[start..<min(start + size, bytes.count)])) }
        continuation.finish()
        return stream
    }

    private func adding(_ more: [String]) -> CSVFixture {
        var copy = self
        copy.records += more
        return copy
    }
}
