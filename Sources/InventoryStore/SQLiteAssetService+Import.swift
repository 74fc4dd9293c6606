import Foundation
import GRDB
import InventoryCore

extension SQLiteAssetService {
    /// Most problems listed in one import error; the count says how many there were in all.
    static let importProblemLimit = 50

    /// Validates every row first, then inserts them all in one transaction. Any bad row (invalid
    /// field, tag or serial repeated in the file or already in the inventory, unknown customer)
    /// fails the whole import, with the problems keyed by "line N".
    public func importAssets(_ rows: [ImportRow], progress: @escaping @Sendable (Int, Int) -> Void) async throws -> Int {
        let now = Date()
        var problems = ValidationError()
        var problemCount = 0
        func report(_ line: Int, _ message: String) {
            problemCount += 1
            if problemCount <= Self.importProblemLimit { problems.add("line \(line)", message) }
        }
        var assets: [(line: Int, asset: Asset)] = []
        assets.reserveCapacity(rows.count)
        var tagLines: [String: Int] = [:]
        var serialLines: [String: Int] = [:]
        let caseSensitive = caseSensitive
        func key(_ text: String) -> String { caseSensitive ? text : Self.asciiLowercased(text) }
        for row in rows {
            do {
                let asset = try row.input.makeAsset(now: now)
                if let first = tagLines.updateValue(row.line, forKey: key(asset.assetTag)) {
                    report(row.line, "asset_tag '\(asset.assetTag)' repeats line \(first)")
                }
                if let serial = asset.serialNum, let first = serialLines.updateValue(row.line, forKey: key(serial)) {
                    report(row.line, "serial_num '\(serial)' repeats line \(first)")
                }
                assets.append((row.line, asset))
            } catch {
                report(row.line, error.errorDescription ?? "invalid row")
            }
        }
        guard problemCount == 0 else { throw Self.importError(problems, count: problemCount) }
        let batch = assets
        let collation = identifierCollation
        return try await database.write { db in
            var problems = ValidationError()
            var problemCount = 0
            let statement = try db.makeStatement(sql: """
                INSERT INTO assets (asset_tag, serial_num, name, model, status, condition, manufacturer, asset_type,
                    cpu_type, cpu_cores, memory, harddrive, country, location, company, customer_id, notes, tech_notes,
                    is_erased, has_keyboard, has_charger, created_at, updated_at)
                VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                """)
            let tagExists = try db.makeStatement(sql: "SELECT 1 FROM assets WHERE asset_tag = ?" + collation)
            let serialExists = try db.makeStatement(sql: "SELECT 1 FROM assets WHERE serial_num = ?" + collation)
            let customerExists = try db.makeStatement(sql: "SELECT 1 FROM customers WHERE id = ?")
            let checkExisting = try Int.fetchOne(db, sql: "SELECT count(*) FROM assets") ?? 0 > 0
            for (index, entry) in batch.enumerated() {
                let a = entry.asset
                var rowProblem: String?
                if checkExisting, try Bool.fetchOne(tagExists, arguments: [a.assetTag]) == true {
                    rowProblem = "asset_tag '\(a.assetTag)' is already in the inventory"
                } else if checkExisting, let serial = a.serialNum, try Bool.fetchOne(serialExists, arguments: [serial]) == true {
                    rowProblem = "serial_num '\(serial)' is already in the inventory"
                } else if let customer = a.customerId, try Bool.fetchOne(customerExists, arguments: [customer]) != true {
                    rowProblem = "customer_id \(customer) is not a customer"
                }
                if let rowProblem {
                    problemCount += 1
                    if problemCount <= Self.importProblemLimit { problems.add("line \(entry.line)", rowProblem) }
                    continue
                }
                if problemCount == 0 {
                    try statement.execute(arguments: [
                        a.assetTag, a.serialNum, a.name, a.model, a.status.rawValue, a.condition?.rawValue, a.manufacturer,
                        a.assetType, a.cpuType, a.cpuCores, a.memory, a.harddrive, a.country, a.location, a.company,
                        a.customerId, a.notes, a.techNotes, a.isErased, a.hasKeyboard, a.hasCharger, a.createdAt, a.updatedAt,
                    ])
                }
                if (index + 1) % 5000 == 0 { progress(index + 1, batch.count) }
            }
            // Throwing rolls the whole transaction back: nothing is half-imported.
            guard problemCount == 0 else { throw Self.importError(problems, count: problemCount) }
            progress(batch.count, batch.count)
            return batch.count
        }
    }

    /// Folds ASCII letters only, as SQLite's NOCASE does.
    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }

    static func importError(_ problems: ValidationError, count: Int) -> InventoryError {
        var problems = problems
        if count > importProblemLimit {
            problems.add("more", "\(count - importProblemLimit) further rows have problems")
        }
        return .invalid(problems)
    }
}
