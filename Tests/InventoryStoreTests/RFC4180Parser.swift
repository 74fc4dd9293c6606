import Foundation

/// A strict RFC 4180 reader for checking reports: every record ends in CRLF, a quote may only
/// open a field, and a quoted field may only be followed by a comma or the record's end.
/// Anything else is an error, so a report that parses here is well-formed.
enum RFC4180Parser {
    struct Malformed: Error, CustomStringConvertible {
        let offset: Int
        let problem: String
        var description: String { "byte \(offset): \(problem)" }
    }

    static func parse(_ data: Data) throws -> [[String]] {
        let bytes = [UInt8](data)
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr: UInt8 = 13, lf: UInt8 = 10
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var wasQuoted = false
        func endField(at offset: Int) throws {
            guard let text = String(bytes: field, encoding: .utf8) else { throw Malformed(offset: offset, problem: "not UTF-8") }
            record.append(text)
            field = []
            wasQuoted = false
        }
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if inQuotes {
                if byte == quote {
                    if i + 1 < bytes.count, bytes[i + 1] == quote { field.append(quote); i += 2; continue }
                    inQuotes = false
                } else {
                    field.append(byte)
                }
                i += 1
                continue
            }
            switch byte {
            case quote:
                guard field.isEmpty, !wasQuoted else { throw Malformed(offset: i, problem: "a quote inside an unquoted field") }
                inQuotes = true
                wasQuoted = true
            case comma:
                try endField(at: i)
            case cr:
                guard i + 1 < bytes.count, bytes[i + 1] == lf else { throw Malformed(offset: i, problem: "CR without LF outside quotes") }
                try endField(at: i)
                records.append(record)
                record = []
                i += 1
            case lf:
                throw Malformed(offset: i, problem: "LF without CR outside quotes")
            default:
                guard !wasQuoted else { throw Malformed(offset: i, problem: "text after a closing quote") }
                field.append(byte)
            }
            i += 1
        }
        guard !inQuotes else { throw Malformed(offset: bytes.count, problem: "an unterminated quoted field") }
        guard field.isEmpty, record.isEmpty, !wasQuoted else { throw Malformed(offset: bytes.count, problem: "the last record has no CRLF") }
        return records
    }
}
