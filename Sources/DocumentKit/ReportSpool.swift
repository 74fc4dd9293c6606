import Foundation
import InventoryCore

#if canImport(Glibc)
    import Glibc
#endif

/// The cells of one report row as byte ranges of a scratch buffer, by `ReportWriter.columns` index.
struct ReportCells {
    static let count = ReportWriter.columns.count
    var ranges = [Range<Int>?](repeating: nil, count: ReportCells.count)
    var bytes: [UInt8] = []

    mutating func reset() {
        for index in ranges.indices { ranges[index] = nil }
        bytes.removeAll(keepingCapacity: true)
    }
}

/// Reads the JSON report (`{"summary": {…}, "assets": [{…}, …]}`) as the service writes it, in
/// pieces: the summary is decoded whole, then each asset object is taken apart as it completes
/// and handed to `row`. Only the object being read is held.
///
/// The service calls `feed` from one place at a time (the report's writer), so the mutable
/// state needs no lock.
final class ReportJSONReader: @unchecked Sendable {
    private(set) var summary: ReportSummary?
    private let row: (inout ReportCells) throws -> Void
    private var pending: [UInt8] = []
    private var position = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var stringStart = -1
    private var lastKey: [UInt8] = []
    private var valueStart = -1
    private var inAssets = false
    private var cells = ReportCells()
    private var failure: (any Error)?
    private static let keyIndex: [[UInt8]: Int] = Dictionary(
        uniqueKeysWithValues: ReportWriter.columns.enumerated().map { (Array($0.element.utf8), $0.offset) })

    init(row: @escaping (inout ReportCells) throws -> Void) { self.row = row }

    func feed(_ data: Data) throws {
        pending.append(contentsOf: data)
        try scan()
        var keep = pending.count
        if valueStart >= 0 { keep = min(keep, valueStart) }
        if inString && stringStart >= 0 { keep = min(keep, stringStart) }
        if keep > 0 {
            pending.removeFirst(keep)
            position -= keep
            if valueStart >= 0 { valueStart -= keep }
            if stringStart >= 0 { stringStart -= keep }
        }
    }

    /// Checks that the document was whole.
    func finish() throws {
        guard summary != nil else { throw DocumentError("the report had no summary") }
        guard depth == 0, !inString else { throw DocumentError("the report ended part-way") }
    }

    private func scan() throws {
        // The state is kept in locals while the bytes are walked (class properties would be
        // checked for exclusive access at every byte), and put back before anything else runs.
        var inString = self.inString
        var escaped = self.escaped
        var depth = self.depth
        var stringStart = self.stringStart
        defer {
            self.inString = inString
            self.escaped = escaped
            self.depth = depth
            self.stringStart = stringStart
        }
        let count = pending.count
        var index = position
        defer { position = index }
        while index < count {
            if inString {
                // Straight to the next quote or backslash.
                let stop = pending.withUnsafeBufferPointer { bytes in
                    var at = index
                    if escaped {
                        escaped = false
                        at += 1
                    }
                    while at < count {
                        let byte = bytes[at]
                        if byte == 0x22 || byte == 0x5C { break }
                        at += 1
                    }
                    return at
                }
                index = stop
                guard index < count else { break }
                if pending[index] == 0x5C {
                    escaped = true
                    index += 1
                    continue
                }
                inString = false
                if depth == 1 && stringStart >= 0 { lastKey = Array(pending[(stringStart + 1)..<index]) }
                stringStart = -1
                index += 1
                continue
            }
            let byte = pending[index]
            switch byte {
            case 0x22:
                inString = true
                stringStart = depth == 1 ? index : -1
            case 0x7B, 0x5B: // { [
                depth += 1
                if depth == 2 && byte == 0x7B && lastKey == Array("summary".utf8) { valueStart = index }
                if depth == 2 && byte == 0x5B && lastKey == Array("assets".utf8) { inAssets = true }
                if depth == 3 && inAssets && byte == 0x7B { valueStart = index }
            case 0x7D, 0x5D: // } ]
                depth -= 1
                if depth == 1 && !inAssets && valueStart >= 0 {
                    let slice = Data(pending[valueStart...index])
                    do {
                        summary = try JSONDecoder.auditStation().decode(ReportSummary.self, from: slice)
                    } catch {
                        throw DocumentError("the report's summary could not be read: \(error)")
                    }
                    valueStart = -1
                } else if depth == 2 && inAssets && valueStart >= 0 {
                    guard summary != nil else { throw DocumentError("the report's assets came before its summary") }
                    let from = valueStart
                    try pending.withUnsafeBufferPointer { try object($0, from: from, to: index) }
                    try row(&cells)
                    valueStart = -1
                } else if depth == 1 && inAssets {
                    inAssets = false
                }
            default:
                break
            }
            index += 1
        }
    }

    /// Takes apart one flat object `{ "key": value, … }` between `from` and `to` (its braces).
    private func object(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to end: Int) throws {
        cells.reset()
        var expectedColumn = 0
        var index = from + 1
        func skipSpace() {
            while index < end, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
        }
        while index < end {
            skipSpace()
            guard index < end else { break }
            if bytes[index] == 0x2C {
                index += 1
                continue
            }
            guard bytes[index] == 0x22 else { throw DocumentError("the report's asset rows are not flat objects") }
            let keyStart = index + 1
            index = keyStart
            while index < end && bytes[index] != 0x22 {
                if bytes[index] == 0x5C { index += 1 }
                index += 1
            }
            let column = Self.column(UnsafeBufferPointer(rebasing: bytes[keyStart..<index]), expected: &expectedColumn)
            index += 1
            skipSpace()
            guard index < end, bytes[index] == 0x3A else { throw DocumentError("the report's asset rows are not flat objects") }
            index += 1
            skipSpace()
            if index < end && bytes[index] == 0x22 {
                let start = cells.bytes.count
                index = try unescape(bytes, from: index + 1, end: end)
                if let column { cells.ranges[column] = start..<cells.bytes.count } else { cells.bytes.removeSubrange(start...) }
            } else {
                let start = index
                while index < end && bytes[index] != 0x2C && bytes[index] != 0x7D && bytes[index] != 0x20 { index += 1 }
                let raw = bytes[start..<index]
                if let column, !raw.elementsEqual("null".utf8) {
                    let at = cells.bytes.count
                    cells.bytes.append(contentsOf: raw)
                    cells.ranges[column] = at..<cells.bytes.count
                }
            }
        }
    }

    private static let keyBytes: [[UInt8]] = ReportWriter.columns.map { Array($0.utf8) }

    /// The column of a key: the one after the last (our writer's order) is tried first, then any.
    private static func column(_ key: UnsafeBufferPointer<UInt8>, expected: inout Int) -> Int? {
        if expected < keyBytes.count, keyBytes[expected].withUnsafeBufferPointer({ $0.elementsEqual(key) }) {
            expected += 1
            return expected - 1
        }
        guard let column = keyIndex[Array(key)] else { return nil }
        expected = column + 1
        return column
    }

    /// Appends a JSON string's text (after its opening quote) to the cells; answers the index after its closing quote.
    private func unescape(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, end: Int) throws -> Int {
        var index = from
        while index < end {
            // The plain run up to the next quote or backslash, in one append.
            var stop = index
            while stop < end && bytes[stop] != 0x22 && bytes[stop] != 0x5C { stop += 1 }
            if stop > index {
                cells.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<stop]))
                index = stop
            }
            guard index < end else { break }
            if bytes[index] == 0x22 { return index + 1 }
            guard index + 1 < end else { break }
            let next = bytes[index + 1]
            index += 2
            switch next {
            case UInt8(ascii: "n"): cells.bytes.append(0x0A)
            case UInt8(ascii: "r"): cells.bytes.append(0x0D)
            case UInt8(ascii: "t"): cells.bytes.append(0x09)
            case UInt8(ascii: "b"): cells.bytes.append(0x08)
            case UInt8(ascii: "f"): cells.bytes.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(bytes, at: index, end: end) else { throw DocumentError("a bad \\u escape in the report") }
                index += 4
                if (0xD800..<0xDC00).contains(scalar), index + 6 <= end, bytes[index] == 0x5C, bytes[index + 1] == UInt8(ascii: "u"),
                    let low = hex4(bytes, at: index + 2, end: end), (0xDC00..<0xE000).contains(low)
                {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                let character = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                cells.bytes.append(contentsOf: String(character).utf8)
            default: cells.bytes.append(next)
            }
        }
        throw DocumentError("a string of the report was cut off")
    }

    private func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> UInt32? {
        guard index + 4 <= end else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}

/// The rows the PDF lists (missing, unexpected, misplaced), kept in an unlinked temporary file
/// rather than in memory, with a small index in memory (16 bytes a row) to read them back in the
/// order the document shows them: the missing grouped by registered location.
final class ReportSpool: @unchecked Sendable {
    /// The cells kept for each listed row, by `ReportWriter.columns` index.
    static let keptColumns = [0, 1, 2, 3, 4, 5, 6, 11, 12, 13, 16, 17]
    enum Field: Int {
        case identifier = 0
        case assetTag
        case serial
        case name
        case model
        case status
        case location
        case reason
        case foundLocation
        case firstScannedAt
        case station
        case user
    }

    struct Entry {
        var offset: Int64
        var length: Int32
        var group: Int32
    }

    private let descriptor: Int32
    private var writeBuffer: [UInt8] = []
    private var written: Int64 = 0
    private(set) var missing: [Entry] = []
    private(set) var unexpected: [Entry] = []
    private(set) var misplaced: [Entry] = []
    private(set) var scanned = 0
    private var groupOf: [[UInt8]: Int32] = [:]
    /// The missing rows' registered locations, by group number (nil: no location).
    private(set) var groupNames: [String?] = []
    private var readBuffer: [UInt8] = []

    init() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("audit-pdf-rows-\(UUID().uuidString)").path
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DocumentError("cannot make a temporary file in \(FileManager.default.temporaryDirectory.path)") }
        unlink(path)
        writeBuffer.reserveCapacity(1 << 20)
    }

    deinit { close(descriptor) }

    func add(_ cells: inout ReportCells) throws {
        guard let outcomeRange = cells.ranges[10] else { return }
        let outcome = cells.bytes[outcomeRange]
        let list: Int
        if outcome.elementsEqual("missing".utf8) {
            list = 0
        } else if outcome.elementsEqual("unexpected".utf8) {
            list = 1
        } else if outcome.elementsEqual("misplaced".utf8) {
            list = 2
        } else {
            scanned += 1
            return
        }
        let start = written + Int64(writeBuffer.count)
        for column in Self.keptColumns {
            if let range = cells.ranges[column] {
                let length = UInt32(range.count)
                withUnsafeBytes(of: length.littleEndian) { writeBuffer.append(contentsOf: $0) }
                writeBuffer.append(contentsOf: cells.bytes[range])
            } else {
                withUnsafeBytes(of: UInt32.max.littleEndian) { writeBuffer.append(contentsOf: $0) }
            }
        }
        let length = Int32(written + Int64(writeBuffer.count) - start)
        switch list {
        case 0:
            let key = cells.ranges[6].map { Array(cells.bytes[$0]) }
            let group: Int32
            if let key, let known = groupOf[key] {
                group = known
            } else if key == nil, let known = groupOf[[0xFF, 0xFF]] {
                group = known
            } else {
                group = Int32(groupNames.count)
                groupOf[key ?? [0xFF, 0xFF]] = group
                groupNames.append(key.map { String(decoding: $0, as: UTF8.self) })
            }
            missing.append(Entry(offset: start, length: length, group: group))
        case 1: unexpected.append(Entry(offset: start, length: length, group: 0))
        default: misplaced.append(Entry(offset: start, length: length, group: 0))
        }
        if writeBuffer.count >= 1 << 20 { try flush() }
    }

    func flush() throws {
        var offset = 0
        while offset < writeBuffer.count {
            let count = writeBuffer[offset...].withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(written)) }
            guard count > 0 else { throw DocumentError("cannot write the report's temporary file (is the disk full?)") }
            offset += count
            written += Int64(count)
        }
        writeBuffer.removeAll(keepingCapacity: true)
    }

    /// The missing rows ordered by location (names in byte order, no location last), then as the report gave them.
    func groupMissing() -> [(name: String?, entries: ArraySlice<Entry>)] {
        let order = groupNames.indices.sorted { left, right in
            switch (groupNames[left], groupNames[right]) {
            case (nil, _): return false
            case (_, nil): return true
            case (let a?, let b?): return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
            }
        }
        var rank = [Int](repeating: 0, count: groupNames.count)
        for (position, group) in order.enumerated() { rank[group] = position }
        var counts = [Int](repeating: 0, count: groupNames.count + 1)
        for entry in missing { counts[rank[Int(entry.group)] + 1] += 1 }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        var sorted = [Entry](repeating: Entry(offset: 0, length: 0, group: 0), count: missing.count)
        var next = counts
        for entry in missing {
            let position = rank[Int(entry.group)]
            sorted[next[position]] = entry
            next[position] += 1
        }
        missing = sorted
        return order.enumerated().map { position, group in (groupNames[group], missing[counts[position]..<counts[position + 1]]) }
    }

    /// Reads one row back and hands its kept cells (by `Field`) to `body`.
    func read<T>(_ entry: Entry, _ body: ([UnsafeRawBufferPointer?]) throws -> T) throws -> T {
        let length = Int(entry.length)
        if readBuffer.count < length { readBuffer = [UInt8](repeating: 0, count: max(length, 4096)) }
        let count = readBuffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, off_t(entry.offset)) }
        guard count == length else { throw DocumentError("cannot read the report's temporary file back") }
        return try readBuffer.withUnsafeBytes { raw in
            var cells: [UnsafeRawBufferPointer?] = []
            cells.reserveCapacity(Self.keptColumns.count)
            var offset = 0
            for _ in Self.keptColumns {
                let size = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian
                offset += 4
                if size == UInt32.max {
                    cells.append(nil)
                } else {
                    cells.append(UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + Int(size))]))
                    offset += Int(size)
                }
            }
            return try body(cells)
        }
    }
}
