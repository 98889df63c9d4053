import Foundation
import LiveTranscriberCore

/// Changing files and the index together, and telling when the library cannot be changed at all
/// (read-only media, a full disk). See docs/library.md, "Writing without losing anything" and
/// "Read-only media, a full disk".
extension LibraryStore {
    /// Changes files and the index together, so a failing change leaves both as they were and a
    /// successful one leaves them in step.
    ///
    /// The index's write transaction is taken first (`BEGIN IMMEDIATE`): an index another process
    /// holds makes the change fail after the busy timeout (5 s) before any file is touched. Then
    /// the index rows are changed, then the files (each step atomic), then the transaction commits;
    /// if that fails, `undo` puts the files back. The caller holds the write lock.
    /// - Throws: `LibraryError.busy` when the index stayed locked, `.readOnly` when the disk is
    ///   full; the failing step's error otherwise.
    func changeInStep<T>(index change: (LibraryIndex) throws -> Void, files: () throws -> T, undo: () -> Void) throws -> T {
        try withIndex { index in
            do {
                try index.database.execute("BEGIN IMMEDIATE")
            } catch let error as SQLiteError where error.primaryCode == 5 || error.primaryCode == 6 {
                throw LibraryError.busy
            } catch let error as SQLiteError where error.isOutOfSpace {
                throw LibraryError.readOnly(reason: Self.fullDiskReason(directory))
            }
            var filesChanged = false
            do {
                try change(index)
                let result = try files()
                filesChanged = true
                try index.database.execute("COMMIT")
                return result
            } catch {
                try? index.database.execute("ROLLBACK")
                if filesChanged { undo() }
                if let error = error as? SQLiteError, error.isOutOfSpace { throw LibraryError.readOnly(reason: Self.fullDiskReason(directory)) }
                throw error
            }
        }
    }

    /// Writes `data` back to `url`, or removes `url` when there was no file (undoing a change).
    static func putBack(_ data: Data?, at url: URL) {
        if let data { try? DurableFile.write(data, to: url) } else { unlink(url.path) }
    }

    /// Why nothing can be written in `directory`, or nil when it can: read-only media (or no
    /// permission), or a full disk (no block or no inode free).
    static func unwritable(_ directory: URL) -> (reason: String, fullDisk: Bool)? {
        var status = statvfs()
        let known = statvfs(directory.path, &status) == 0
        let readOnlyMedia = known && status.f_flag & UInt(ST_RDONLY) != 0
        if readOnlyMedia || access(directory.path, W_OK) != 0 {
            return ("the library at \(directory.path) is read-only\(readOnlyMedia ? " (read-only media)" : ""): "
                + "list, show, search and export work, but nothing can be changed or recorded", false)
        }
        if known && (status.f_bavail == 0 || status.f_favail == 0) {
            return (fullDiskReason(directory), true)
        }
        return nil
    }

    /// What a full disk means for the library, in words.
    static func fullDiskReason(_ directory: URL) -> String {
        "the disk holding the library at \(directory.path) is full: list, show, search and export work, "
            + "and 'delete --purge' frees space; nothing else can be changed until there is room"
    }

    /// True for an error that says the disk (or the index on it) has no room, or cannot be written.
    public static func isOutOfSpace(_ error: any Error) -> Bool {
        if let error = error as? SQLiteError { return error.isOutOfSpace || error.primaryCode == 8 }
        if let error = error as? FileSystemError { return error.errno == ENOSPC || error.errno == EDQUOT }
        if case LibraryError.readOnly(let reason) = error { return reason.contains(" is full") }
        return false
    }
}
