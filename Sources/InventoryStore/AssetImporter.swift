import Foundation
import GRDB
import InventoryCore
#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// A row of an import after its fields were checked off the database thread.
enum PreparedRow: Sendable {
    case asset(line: Int, Asset)
    case invalid(line: Int, [String])

    init(_ row: ImportRow, now: Date) {
        guard row.problems.isEmpty else {
            self = .invalid(line: row.line, row.problems)
            return
        }
        do { self = .asset(line: row.line, try row.input.makeAsset(now: now)) } catch {
            self = .invalid(line: row.line, [error.errorDescription ?? "invalid row"])
        }
    }
}

/// Stores the rows of one import inside its transaction, and finds which line each bad row
/// clashes with.
///
/// The schema's unique indexes find a repeated tag or serial, whether it repeats the inventory
/// or an earlier row of the file: every good row is inserted, even after a problem, so that
/// later rows are still checked against it (the transaction is rolled back at the end). The
/// rows of one import get consecutive ids (SQLite gives max(id) + 1, and no one else writes
/// during the transaction), so `lines` (4 bytes a row) maps an id back to its line; no other
/// per-row state is kept. With case-insensitive identifiers the binary unique index cannot see
/// "tag-1" repeat "TAG-1", so each row is first looked up through the NOCASE indexes.
///
/// Binding goes through SQLite's C API: a million rows then cost no argument arrays.
final class AssetImporter {
    private let insert: Statement
    private let tagLookup: Statement
    private let serialLookup: Statement
    private let customerLookup: Statement
    private let lookUpFirst: Bool
    /// The id the import's first row gets; its rows get the ids from here on.
    let firstID: Int64
    private let stamp: String
    private var lines: [UInt32] = []
    private var parameters = BoundParameters(count: 23)
    private(set) var problems = ValidationError()
    private(set) var problemCount = 0
    private(set) var stored = 0

    init(db: Database, caseSensitive: Bool, now: Date) throws {
        insert = try db.makeStatement(
            sql: """
                INSERT INTO assets (asset_tag, serial_num, name, model, status, condition, manufacturer, asset_type,
                    cpu_type, cpu_cores, memory, harddrive, country, location, company, customer_id, notes, tech_notes,
                    is_erased, has_keyboard, has_charger, created_at, updated_at)
                VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                """)
        let collation = caseSensitive ? "" : " COLLATE NOCASE"
        tagLookup = try db.makeStatement(sql: "SELECT min(id) FROM assets WHERE asset_tag = ?" + collation)
        serialLookup = try db.makeStatement(sql: "SELECT min(id) FROM assets WHERE serial_num = ?" + collation)
        customerLookup = try db.makeStatement(sql: "SELECT min(id) FROM customers WHERE id = ?")
        lookUpFirst = !caseSensitive
        firstID = (try Int64.fetchOne(db, sql: "SELECT max(id) FROM assets") ?? 0) + 1
        stamp = String.fromDatabaseValue(now.databaseValue) ?? ""
    }

    var isClean: Bool { problemCount == 0 }

    func take(_ row: PreparedRow) throws {
        switch row {
        case .invalid(let line, let messages): report(line, messages)
        case .asset(let line, let asset): try store(asset, line: line)
        }
    }

    private func report(_ line: Int, _ messages: [String]) {
        problemCount += 1
        guard problemCount <= SQLiteAssetService.importProblemLimit else { return }
        for message in messages { problems.add("line \(line)", message) }
    }

    private func store(_ a: Asset, line: Int) throws {
        if lookUpFirst, let clash = try clash(a) {
            report(line, [clash])
            return
        }
        let handle = insert.sqliteStatement
        parameters.set(handle, 1, a.assetTag)
        parameters.set(handle, 2, a.serialNum)
        parameters.set(handle, 3, a.name)
        parameters.set(handle, 4, a.model)
        parameters.set(handle, 5, a.status.rawValue)
        parameters.set(handle, 6, a.condition?.rawValue)
        parameters.set(handle, 7, a.manufacturer)
        parameters.set(handle, 8, a.assetType)
        parameters.set(handle, 9, a.cpuType)
        parameters.set(handle, 10, a.cpuCores)
        parameters.set(handle, 11, a.memory)
        parameters.set(handle, 12, a.harddrive)
        parameters.set(handle, 13, a.country)
        parameters.set(handle, 14, a.location)
        parameters.set(handle, 15, a.company)
        parameters.set(handle, 16, a.customerId)
        parameters.set(handle, 17, a.notes)
        parameters.set(handle, 18, a.techNotes)
        parameters.set(handle, 19, Int64(a.isErased ? 1 : 0))
        parameters.set(handle, 20, Int64(a.hasKeyboard ? 1 : 0))
        parameters.set(handle, 21, Int64(a.hasCharger ? 1 : 0))
        parameters.set(handle, 22, stamp)
        parameters.set(handle, 23, stamp)
        let code = sqlite3_step(handle)
        let message = code == SQLITE_DONE ? "" : String(cString: sqlite3_errmsg(sqlite3_db_handle(handle)))
        sqlite3_reset(handle)
        if code == SQLITE_DONE {
            guard sqlite3_last_insert_rowid(sqlite3_db_handle(handle)) == firstID + Int64(stored) else {
                throw InventoryError.storage("the import's rows did not get consecutive ids; nothing was imported")
            }
            lines.append(UInt32(clamping: line))
            stored += 1
        } else if code & 0xFF == SQLITE_CONSTRAINT {
            report(line, [try clash(a) ?? "the database refused the row: \(message)"])
        } else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
        }
    }

    /// Why the row cannot join the inventory: a tag or serial it repeats, or its unknown customer.
    private func clash(_ a: Asset) throws -> String? {
        if let id = try firstMatch(tagLookup, text: a.assetTag) {
            return "asset_tag '\(a.assetTag)' " + place(of: id)
        }
        if let serial = a.serialNum, let id = try firstMatch(serialLookup, text: serial) {
            return "serial_num '\(serial)' " + place(of: id)
        }
        if let customer = a.customerId {
            let handle = customerLookup.sqliteStatement
            sqlite3_bind_int64(handle, 1, customer)
            if try Self.stepValue(handle) == nil { return "customer_id \(customer) is not a customer" }
        }
        return nil
    }

    private func place(of id: Int64) -> String {
        id < firstID ? "is already in the inventory" : "repeats line \(lines[Int(id - firstID)])"
    }

    private func firstMatch(_ statement: Statement, text: String) throws -> Int64? {
        let handle = statement.sqliteStatement
        BoundParameters.bind(handle, 1, text)
        return try Self.stepValue(handle)
    }

    /// Steps a one-row, one-column query and resets it; nil for no row or NULL.
    private static func stepValue(_ handle: SQLiteStatement?) throws -> Int64? {
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_ROW else {
            if code == SQLITE_DONE { return nil }
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
        }
        return sqlite3_column_type(handle, 0) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, 0)
    }
}
