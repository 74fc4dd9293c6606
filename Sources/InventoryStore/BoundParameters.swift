#if canImport(GRDBSQLite)
    import GRDBSQLite
#else
    import SQLite3
#endif
import GRDB

/// What each parameter of a prepared statement holds, so that a value equal to the last row's
/// is not bound again: SQLite keeps bindings across `sqlite3_reset`, and each bind takes the
/// connection's mutex and copies the bytes. In an inventory most columns repeat (status, model,
/// country, the timestamps) or stay empty.
struct BoundParameters {
    private enum Value: Equatable { case null, text(String), integer(Int64) }
    private var values: [Value]

    /// A freshly prepared statement's parameters are all NULL.
    init(count: Int) { values = Array(repeating: .null, count: count + 1) }

    mutating func set(_ handle: SQLiteStatement?, _ index: Int32, _ text: String?) {
        let value = text.map(Value.text) ?? .null
        guard values[Int(index)] != value else { return }
        values[Int(index)] = value
        Self.bind(handle, index, text)
    }

    mutating func set(_ handle: SQLiteStatement?, _ index: Int32, _ number: Int64?) {
        let value = number.map(Value.integer) ?? .null
        guard values[Int(index)] != value else { return }
        values[Int(index)] = value
        if let number { sqlite3_bind_int64(handle, index, number) } else { sqlite3_bind_null(handle, index) }
    }

    /// SQLite copies the bytes (SQLITE_TRANSIENT), so they need to live only during the call.
    static func bind(_ handle: SQLiteStatement?, _ index: Int32, _ text: String?) {
        guard var text else {
            sqlite3_bind_null(handle, index)
            return
        }
        guard !text.isEmpty else {
            sqlite3_bind_text(handle, index, "", 0, transient)
            return
        }
        text.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) { chars in
                _ = sqlite3_bind_text(handle, index, chars.baseAddress, Int32(chars.count), transient)
            }
        }
    }

    private static var transient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }
}
