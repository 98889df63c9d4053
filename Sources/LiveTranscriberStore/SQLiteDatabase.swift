import Foundation

/// One value bound to a statement parameter.
enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
}

/// An open SQLite connection; `deinit` closes it.
///
/// Opened in WAL mode with a busy timeout, so a second process reading or writing the same file
/// waits (up to `busyTimeoutMilliseconds`) instead of failing with SQLITE_BUSY. Not thread-safe:
/// use one connection per thread.
///
/// ```swift
/// let db = try SQLiteDatabase(path: "/tmp/x.sqlite")
/// try db.execute("CREATE TABLE t(x)")
/// try db.run("INSERT INTO t VALUES (?)", [.text("a")])
/// let rows = try db.query("SELECT x FROM t") { $0.text(0) }
/// ```
final class SQLiteDatabase {
    let handle: OpaquePointer

    /// Opens (creating if needed) the database at `path`.
    /// - Throws: `SQLiteError` when the file cannot be opened.
    convenience init(path: String, busyTimeoutMilliseconds: Int32 = 5000) throws {
        try self.init(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    /// Opens `path` with `flags` (`SQLITE_OPEN_*`; add `SQLITE_OPEN_URI` for a `file:` URI such as
    /// `file:/x.sqlite?immutable=1`, which reads a file on read-only media without any lock or journal).
    init(path: String, flags: Int32, busyTimeoutMilliseconds: Int32 = 5000) throws {
        var pointer: OpaquePointer?
        let flags = flags | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &pointer, flags, nil)
        guard code == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let pointer { sqlite3_close_v2(pointer) }
            throw SQLiteError(code: code, message: message, context: "open \(path)")
        }
        handle = pointer
        sqlite3_extended_result_codes(handle, 1)
        try check(sqlite3_busy_timeout(handle, busyTimeoutMilliseconds), "sqlite3_busy_timeout")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Throws `SQLiteError` unless `code` is OK, ROW or DONE. The one place result codes are checked.
    @discardableResult
    func check(_ code: Int32, _ context: @autoclosure () -> String) throws -> Int32 {
        switch code & 0xFF {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE:
            return code
        default:
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), context: context())
        }
    }

    /// Runs one or more statements without parameters.
    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql)
    }

    /// Prepares one statement.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), sql)
        guard let statement else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "empty statement", context: sql)
        }
        return SQLiteStatement(statement, database: self, sql: sql)
    }

    /// Runs one statement with `parameters` and returns the rows changed.
    @discardableResult
    func run(_ sql: String, _ parameters: [SQLiteValue] = []) throws -> Int {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query and maps each row.
    func query<Row>(_ sql: String, _ parameters: [SQLiteValue] = [], _ map: (SQLiteStatement) throws -> Row) throws -> [Row] {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        var rows: [Row] = []
        while try statement.step() {
            rows.append(try map(statement))
        }
        return rows
    }

    /// Runs `body` in one read transaction (`BEGIN`, then `COMMIT`): every statement in it sees
    /// the same snapshot of the database, and the file locks and the write-ahead log's index are
    /// taken once rather than once per statement. Inside a transaction already, `body` just runs in it.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        guard sqlite3_get_autocommit(handle) != 0 else { return try body() }
        return try transaction("BEGIN", body)
    }

    /// Runs `body` in a write transaction taken up front (`BEGIN IMMEDIATE`), so it waits for
    /// another writer at the start instead of failing later; commits, or rolls back if it throws.
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction("BEGIN IMMEDIATE", body)
    }

    /// Runs `begin`, then `body`; commits, or rolls back if `body` or the commit throws. The first
    /// error is the one thrown; the rollback runs only while a transaction is still open (SQLite
    /// rolls back by itself after some errors, SQLITE_FULL and SQLITE_IOERR among them).
    private func transaction<T>(_ begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }
}
