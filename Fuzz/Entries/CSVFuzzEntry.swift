import Foundation
import InventoryCore

/// The CSV import fuzz target's one step: `AssetImport.rows(fromCSV:)`, then each row through
/// `AssetInput.makeAsset`, the check the store makes on every row. `assets import` and the API
/// read the file in blocks, so the same bytes are also read in blocks (of a size the input
/// picks), which must give exactly the records and the problem that reading them whole gives.
public enum CSVFuzzEntry {
    public enum Outcome: Equatable, Sendable {
        /// The file or some rows were refused; each problem as "field: message".
        case refused([String])
        /// Every row is a valid asset.
        case accepted(rows: Int)
    }

    public static func run(_ bytes: [UInt8]) -> Outcome {
        let blockSize = Int(bytes.last ?? 0) % 13 + 1
        let whole = records(bytes, blockSize: nil)
        let streamed = records(bytes, blockSize: blockSize)
        // Only a reader fed in blocks refuses a record over `CSVReader.maxRecordBytes`.
        if case .tooLong = streamed.problem {} else {
            precondition(streamed == whole, "reading in blocks of \(blockSize) bytes gave other records than reading the bytes whole")
        }
        let rows: [ImportRow]
        do { rows = try AssetImport.rows(fromCSV: bytes) } catch {
            return .refused(problems(error))
        }
        var refused: [String] = []
        for row in rows {
            do { _ = try row.input.makeAsset(now: Date(timeIntervalSince1970: 1_795_000_000)) } catch {
                refused += problems(error).map { "line \(row.line): \($0)" }
            }
        }
        return refused.isEmpty ? .accepted(rows: rows.count) : .refused(refused)
    }

    struct Reading: Equatable {
        var records: [CSVReader.Record] = []
        var problem: CSVReader.Problem?
    }

    /// Every record and the problem that stopped the reader, from the bytes whole or in blocks.
    static func records(_ bytes: [UInt8], blockSize: Int?) -> Reading {
        var reader = blockSize == nil ? CSVReader(bytes: bytes) : CSVReader()
        var reading = Reading()
        if let blockSize {
            for start in stride(from: 0, to: bytes.count, by: blockSize) {
                reader.append(bytes[start..<min(start + blockSize, bytes.count)])
                while let record = reader.next() { reading.records.append(record) }
            }
            reader.finish()
        }
        while let record = reader.next() { reading.records.append(record) }
        reading.problem = reader.problem
        return reading
    }

    static func problems(_ error: ValidationError) -> [String] {
        let text = error.errorDescription ?? "invalid"
        return [text.isEmpty ? "invalid" : text]
    }
}
