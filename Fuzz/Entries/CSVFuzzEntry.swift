import Foundation
import InventoryCore

/// The CSV import fuzz target's one step: `AssetImport.rows(fromCSV:)`, as `assets import` runs
/// it, then each row through `AssetInput.makeAsset`, the check the store makes on every row
/// before it writes any.
public enum CSVFuzzEntry {
    public enum Outcome: Equatable, Sendable {
        /// The file or some rows were refused; each problem as "field: message".
        case refused([String])
        /// Every row is a valid asset.
        case accepted(rows: Int)
    }

    public static func run(_ bytes: [UInt8]) -> Outcome {
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

    static func problems(_ error: ValidationError) -> [String] {
        let text = error.errorDescription ?? "invalid"
        return [text.isEmpty ? "invalid" : text]
    }
}
