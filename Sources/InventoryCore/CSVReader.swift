/// Reads RFC 4180 CSV from bytes: quoted fields may hold commas, quotes ("") and line breaks;
/// lines end in LF or CRLF; a UTF-8 byte-order mark is skipped. Each record carries the line
/// it starts on, so errors can name it.
///
/// The bytes may come whole (`init(bytes:)`) or in blocks (`init()`, then `append(_:)` as they
/// arrive and `finish()` at the end), so a file of any size is read in bounded memory: `next()`
/// returns nil when the record it is reading needs bytes that have not come yet, and parses that
/// record again from its start once they have.
public struct CSVReader: Sequence, IteratorProtocol {
    public struct Record: Sendable, Equatable {
        public var line: Int
        public var fields: [String]
    }

    public enum Problem: Error, Sendable, Equatable {
        case notUTF8(line: Int)
        case unterminatedQuote(line: Int)
        case strayQuote(line: Int)
        case tooLong(line: Int)
    }

    /// The longest record held while waiting for its end: a quote that never closes must not
    /// make the reader hold the rest of a large file.
    public static let maxRecordBytes = 1 << 20

    private var bytes: [UInt8]
    private var index = 0
    private var line = 1
    /// No more bytes will come.
    private var isComplete: Bool
    private var atStart = true
    /// The first problem met; iteration stops there.
    public private(set) var problem: Problem?

    public init(bytes: [UInt8]) {
        self.bytes = bytes
        isComplete = true
    }

    /// A reader that is given its bytes in blocks.
    public init() {
        bytes = []
        isComplete = false
    }

    /// Adds the next block of bytes, dropping the ones already read.
    public mutating func append(_ block: some Collection<UInt8>) {
        if index > 0 {
            bytes.removeSubrange(0..<index)
            index = 0
        }
        bytes.append(contentsOf: block)
    }

    /// Says that no more bytes will come: the last record may end without a line break.
    public mutating func finish() { isComplete = true }

    public mutating func next() -> Record? {
        guard problem == nil else { return nil }
        if atStart {
            guard isComplete || bytes.count >= 3 else { return nil }
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
            atStart = false
        }
        guard index < bytes.count else { return nil }
        let startIndex = index
        let startLine = line
        // A second reference to the storage, so parsing may update the reader's position
        // while it reads the bytes.
        let buffer = bytes
        let record = buffer.withUnsafeBufferPointer { parse(from: $0, startLine: startLine) }
        if case .needMore = record {
            if bytes.count - startIndex > Self.maxRecordBytes { problem = .tooLong(line: startLine) }
            index = startIndex
            line = startLine
            return nil
        }
        if case .record(let fields) = record { return Record(line: startLine, fields: fields) }
        return nil
    }

    private enum Step { case record([String]), needMore, failed }

    private mutating func parse(from bytes: UnsafeBufferPointer<UInt8>, startLine: Int) -> Step {
        var fields: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var wasQuoted = false
        let count = bytes.count
        // ASCII is valid UTF-8 as it is, and most fields are ASCII: they skip String's
        // validation, whose unspecialised path cost about 0.6 s of a million-row import.
        func finish(_ field: [UInt8]) -> String? {
            field.allSatisfy { $0 < 0x80 } ? String(decoding: field, as: UTF8.self) : String(validating: field, as: UTF8.self)
        }
        while index < count {
            let byte = bytes[index]
            index += 1
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index == count && !isComplete { return .needMore }
                    if index < count, bytes[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    if byte == 10 { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                guard let text = finish(field) else {
                    problem = .notUTF8(line: line)
                    return .failed
                }
                fields.append(text)
                field.removeAll(keepingCapacity: true)
                wasQuoted = false
            case UInt8(ascii: "\""):
                if field.isEmpty && !wasQuoted {
                    inQuotes = true
                    wasQuoted = true
                } else {
                    problem = .strayQuote(line: line)
                    return .failed
                }
            case 13 where index == count && !isComplete:
                return .needMore
            case 13 where index < count && bytes[index] == 10:
                continue
            case 10:
                line += 1
                guard let text = finish(field) else {
                    problem = .notUTF8(line: startLine)
                    return .failed
                }
                fields.append(text)
                return .record(fields)
            default:
                if wasQuoted {
                    problem = .strayQuote(line: line)
                    return .failed
                }
                field.append(byte)
            }
        }
        if !isComplete { return .needMore }
        if inQuotes {
            problem = .unterminatedQuote(line: startLine)
            return .failed
        }
        guard let text = finish(field) else {
            problem = .notUTF8(line: startLine)
            return .failed
        }
        fields.append(text)
        return .record(fields)
    }
}

extension CSVReader.Problem {
    public var message: String { "line \(line) \(detail)" }

    /// The line the problem is on.
    public var line: Int {
        switch self {
        case .notUTF8(let line), .unterminatedQuote(let line), .strayQuote(let line), .tooLong(let line): line
        }
    }

    /// The message without its line, for lists keyed by line.
    public var detail: String {
        switch self {
        case .notUTF8: "is not UTF-8 text"
        case .unterminatedQuote: "opens a quoted field that never closes"
        case .strayQuote: "has a quote inside an unquoted field (quote the whole field and double the quote)"
        case .tooLong: "is longer than \(CSVReader.maxRecordBytes >> 20) MiB (a quoted field that never closes?)"
        }
    }
}
