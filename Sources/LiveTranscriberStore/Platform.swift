// The store's one platform split: the C library and SQLite differ by name between Linux (Glibc,
// the `CSQLite` system library) and Apple platforms (Darwin, the SDK's `SQLite3`). Every other
// file of this module imports Foundation and the core only and calls what this file re-exports or
// defines; nothing else in the module has an `#if`.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif

#if canImport(SQLite3)
@_exported import SQLite3
#else
@_exported import CSQLite
#endif

/// The C library calls whose name or shape differs between Glibc and Darwin.
enum Platform {
    /// `rename(2)`: 0 on success, -1 with `errno` set.
    static func rename(_ source: String, _ destination: String) -> Int32 {
        #if canImport(Glibc)
        Glibc.rename(source, destination)
        #else
        Darwin.rename(source, destination)
        #endif
    }

    /// `write(2)`: the number of bytes written, or -1 with `errno` set.
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
        #else
        Darwin.write(descriptor, bytes, count)
        #endif
    }

    /// Flushes a file or folder to the storage device: `fsync(2)` on Linux; on Darwin
    /// `fcntl(F_FULLFSYNC)` (Darwin's `fsync` stops at the drive's cache), falling back to `fsync`
    /// where the file system refuses it. 0 on success, -1 with `errno` set.
    static func sync(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        fsync(descriptor)
        #else
        fcntl(descriptor, F_FULLFSYNC) == 0 ? 0 : fsync(descriptor)
        #endif
    }

    /// The last modification time of a `stat` result as (seconds, nanoseconds) since 1970.
    static func modificationTime(_ info: stat) -> (seconds: Int, nanoseconds: Int) {
        #if canImport(Glibc)
        (Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec))
        #else
        (Int(info.st_mtimespec.tv_sec), Int(info.st_mtimespec.tv_nsec))
        #endif
    }
}

#if canImport(SQLite3)
// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import; the
// Linux shim (Sources/CSQLite/shim.h) binds through these two helpers, and this is their twin.
private var sqliteTransient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

/// Binds text so that SQLite copies it (`SQLITE_TRANSIENT`).
func lt_sqlite3_bind_text(_ statement: OpaquePointer?, _ index: Int32, _ text: UnsafePointer<CChar>?) -> Int32 {
    sqlite3_bind_text(statement, index, text, -1, sqliteTransient)
}

/// Binds a blob so that SQLite copies it (`SQLITE_TRANSIENT`).
func lt_sqlite3_bind_blob(_ statement: OpaquePointer?, _ index: Int32, _ data: UnsafeRawPointer?, _ count: Int32) -> Int32 {
    sqlite3_bind_blob(statement, index, data, count, sqliteTransient)
}
#endif
