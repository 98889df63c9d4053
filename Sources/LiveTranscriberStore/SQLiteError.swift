import Foundation

/// A failed SQLite call: its result code, SQLite's message, and the SQL (or call) it ran.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
    /// The (extended) result code, such as 5 (SQLITE_BUSY) or 26 (SQLITE_NOTADB).
    public var code: Int32
    /// `sqlite3_errmsg` at the time of the failure.
    public var message: String
    /// The statement or call that failed.
    public var context: String

    public init(code: Int32, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// The primary result code (the low byte of an extended code).
    public var primaryCode: Int32 { code & 0xFF }

    /// True for a damaged database file: SQLITE_CORRUPT (11) or SQLITE_NOTADB (26).
    public var isDamage: Bool { primaryCode == 11 || primaryCode == 26 }

    /// True when the disk has no room for the change: SQLITE_FULL (13), or an I/O error whose
    /// extended code says a write or a truncate failed (ENOSPC surfaces as either).
    public var isOutOfSpace: Bool { primaryCode == 13 || primaryCode == 10 }

    /// The primary result code's name, as SQLite's documentation spells it ("SQLITE_BUSY").
    public var name: String {
        let names: [Int32: String] = [
            1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT", 5: "SQLITE_BUSY",
            6: "SQLITE_LOCKED", 7: "SQLITE_NOMEM", 8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT", 10: "SQLITE_IOERR",
            11: "SQLITE_CORRUPT", 12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL",
            17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE",
            22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 25: "SQLITE_RANGE", 26: "SQLITE_NOTADB",
        ]
        return names[primaryCode] ?? "SQLite error \(code)"
    }

    public var description: String {
        "the library index failed (\(name): \(message)) while running: \(context)"
    }
}
