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

    public var description: String {
        "the library index failed (SQLite error \(code): \(message)) while running: \(context)"
    }
}
