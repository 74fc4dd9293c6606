import GRDB
#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif

/// Steps a statement and hands each row's text columns to `body` as raw UTF-8 bytes (nil for
/// NULL), valid only during the call. This and the import's `AssetImporter` (which binds) are
/// the places that use SQLite's C API directly: a million-row report then costs no per-cell
/// allocation.
func forEachRawRow(
    _ statement: Statement, columns: Int,
    _ body: (_ cell: (Int) -> UnsafeRawBufferPointer?) throws -> Void
) throws {
    let handle = statement.sqliteStatement
    while true {
        let code = sqlite3_step(handle)
        if code == SQLITE_DONE { break }
        guard code == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
        }
        try body { index in
            guard index < columns, let text = sqlite3_column_text(handle, Int32(index)) else { return nil }
            return UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, Int32(index))))
        }
    }
    sqlite3_reset(handle)
}
