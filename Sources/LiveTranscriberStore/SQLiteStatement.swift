import Foundation

/// A prepared statement; `deinit` finalizes it.
final class SQLiteStatement {
    let handle: OpaquePointer
    private let database: SQLiteDatabase
    private let sql: String

    init(_ handle: OpaquePointer, database: SQLiteDatabase, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to parameters 1...n.
    func bind(_ values: [SQLiteValue]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32 = switch value {
            case .null: sqlite3_bind_null(handle, index)
            case .integer(let number): sqlite3_bind_int64(handle, index, number)
            case .real(let number): sqlite3_bind_double(handle, index, number)
            case .text(let text): lt_sqlite3_bind_text(handle, index, text)
            }
            try database.check(code, "bind parameter \(index) of \(sql)")
        }
    }

    /// Makes the statement ready to run again with new bindings.
    func reset() throws {
        try database.check(sqlite3_reset(handle), "reset \(sql)")
        sqlite3_clear_bindings(handle)
    }

    /// Steps once; true when a row is available.
    func step() throws -> Bool {
        try database.check(sqlite3_step(handle), sql) & 0xFF == SQLITE_ROW
    }

    /// The text of column `index` (0-based); "" for NULL.
    func text(_ index: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, index) else { return "" }
        return String(cString: pointer)
    }

    /// Calls `body` with the UTF-8 bytes of column `index` (empty for NULL), valid only inside
    /// `body`: for reading a long text without copying it into a `String`.
    func withBytes<Result>(_ index: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        guard let pointer = sqlite3_column_text(handle, index) else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, index))))
    }

    /// The text of column `index`, nil for NULL.
    func optionalText(_ index: Int32) -> String? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : text(index)
    }

    func double(_ index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// The number in column `index`, nil for NULL.
    func optionalDouble(_ index: Int32) -> Double? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : double(index)
    }

    func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }
}
