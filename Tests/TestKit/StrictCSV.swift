import Foundation

/// A strict RFC 4180 reader for checking written CSV (the report writer's and the reports the
/// stores give): every record ends in CRLF, a quote may only open a field, and a closing quote
/// must be followed by a comma or the record's end. Anything else is an error, so a file that
/// parses here is well-formed.
public enum StrictCSV {
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public let offset: Int
        public let problem: String
        public var description: String { "byte \(offset): \(problem)" }
    }

    public static func parse(_ data: Data) throws(Malformed) -> [[String]] {
        try parse([UInt8](data))
    }

    public static func parse(_ bytes: [UInt8]) throws(Malformed) -> [[String]] {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr: UInt8 = 13, lf: UInt8 = 10
        var records: [[String]] = [], record: [String] = [], field: [UInt8] = []
        var inQuotes = false, wasQuoted = false
        func endField(_ offset: Int) throws(Malformed) {
            guard let text = String(bytes: field, encoding: .utf8) else { throw Malformed(offset: offset, problem: "not UTF-8") }
            record.append(text)
            field = []
            wasQuoted = false
        }
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if inQuotes {
                if byte == quote, i + 1 < bytes.count, bytes[i + 1] == quote {
                    field.append(quote)
                    i += 2
                    continue
                }
                if byte == quote { inQuotes = false } else { field.append(byte) }
            } else if byte == quote {
                guard field.isEmpty, !wasQuoted else { throw Malformed(offset: i, problem: "quote inside an unquoted field") }
                inQuotes = true
                wasQuoted = true
            } else if byte == comma {
                try endField(i)
            } else if byte == cr {
                guard i + 1 < bytes.count, bytes[i + 1] == lf else { throw Malformed(offset: i, problem: "bare CR") }
                try endField(i)
                records.append(record)
                record = []
                i += 1
            } else if byte == lf {
                throw Malformed(offset: i, problem: "bare LF")
            } else {
                guard !wasQuoted else { throw Malformed(offset: i, problem: "text after a closing quote") }
                field.append(byte)
            }
            i += 1
        }
        guard !inQuotes else { throw Malformed(offset: bytes.count, problem: "unterminated quote") }
        guard field.isEmpty, record.isEmpty, !wasQuoted else { throw Malformed(offset: bytes.count, problem: "no final CRLF") }
        return records
    }
}
