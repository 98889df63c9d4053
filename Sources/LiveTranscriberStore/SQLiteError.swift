import Foundation

/// A failed SQLite call: its result code, SQLite's message, and the SQL (or call) it ran.
struct SQLiteError: Error, Equatable, CustomStringConvertible {
    /// The (extended) result code, such as 5 (SQLITE_BUSY) or 26 (SQLITE_NOTADB).
    var code: Int32
    /// `sqlite3_errmsg` at the time of the failure.
    var message: String
    /// The statement or call that failed.
    var context: String

    init(code: Int32, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// The primary result code (the low byte of an extended code).
    var primaryCode: Int32 { code & 0xFF }

    /// True for a damaged database file: SQLITE_CORRUPT or SQLITE_NOTADB.
    var isDamage: Bool { [Self.corrupt, Self.notADatabase].contains(primaryCode) }

    /// True when the disk has no room for the change: SQLITE_FULL, or SQLITE_IOERR (ENOSPC
    /// surfaces as either: an I/O error whose extended code says a write or a truncate failed).
    var isOutOfSpace: Bool { [Self.full, Self.ioError].contains(primaryCode) }

    /// True when another connection holds the database: SQLITE_BUSY or SQLITE_LOCKED.
    var isBusy: Bool { [Self.busy, Self.locked].contains(primaryCode) }

    // Primary result codes by SQLite's names (https://sqlite.org/rescode.html); an extended code
    // is matched through `primaryCode`.
    static let busy: Int32 = 5
    static let locked: Int32 = 6
    static let readOnlyDatabase: Int32 = 8
    static let ioError: Int32 = 10
    static let corrupt: Int32 = 11
    static let full: Int32 = 13
    static let notADatabase: Int32 = 26

    /// The primary result code's name, as SQLite's documentation spells it ("SQLITE_BUSY").
    var name: String {
        let names: [Int32: String] = [
            1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT", 5: "SQLITE_BUSY",
            6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT", 10: "SQLITE_IOERR",
            11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL",
            17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE",
            22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 25: "SQLITE_RANGE", 26: "SQLITE_NOTADB",
        ]
        return names[primaryCode] ?? "SQLite error \(code)"
    }

    var description: String {
        "the library index failed (\(name): \(message)) while running: \(context)"
    }
}
