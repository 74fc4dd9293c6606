/// Reads RFC 4180 CSV from bytes: quoted fields may hold commas, quotes ("") and line breaks;
/// lines end in LF or CRLF; a UTF-8 byte-order mark is skipped. Each record carries the line
/// it starts on, so errors can name it.
public struct CSVReader: Sequence, IteratorProtocol {
    public struct Record: Sendable, Equatable {
        public var line: Int
        public var fields: [String]
    }

    public enum Problem: Error, Sendable, Equatable {
        case notUTF8(line: Int)
        case unterminatedQuote(line: Int)
        case strayQuote(line: Int)
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    /// The first problem met; iteration stops there.
    public private(set) var problem: Problem?

    public init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    public mutating func next() -> Record? {
        guard problem == nil, index < bytes.count else { return nil }
        let startLine = line
        var fields: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var wasQuoted = false
        func finish(_ field: [UInt8]) -> String? { String(validating: field, as: UTF8.self) }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") { field.append(byte); index += 1 }
                    else { inQuotes = false }
                } else {
                    if byte == 10 { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                guard let text = finish(field) else { problem = .notUTF8(line: line); return nil }
                fields.append(text); field.removeAll(keepingCapacity: true); wasQuoted = false
            case UInt8(ascii: "\""):
                if field.isEmpty && !wasQuoted { inQuotes = true; wasQuoted = true }
                else { problem = .strayQuote(line: line); return nil }
            case 13 where index < bytes.count && bytes[index] == 10:
                continue
            case 10:
                line += 1
                guard let text = finish(field) else { problem = .notUTF8(line: startLine); return nil }
                fields.append(text)
                return Record(line: startLine, fields: fields)
            default:
                if wasQuoted { problem = .strayQuote(line: line); return nil }
                field.append(byte)
            }
        }
        if inQuotes { problem = .unterminatedQuote(line: startLine); return nil }
        guard let text = finish(field) else { problem = .notUTF8(line: startLine); return nil }
        fields.append(text)
        return Record(line: startLine, fields: fields)
    }
}

extension CSVReader.Problem {
    public var message: String {
        switch self {
        case .notUTF8(let line): "line \(line) is not UTF-8 text"
        case .unterminatedQuote(let line): "line \(line) opens a quoted field that never closes"
        case .strayQuote(let line): "line \(line) has a quote inside an unquoted field (quote the whole field and double the quote)"
        }
    }
}
