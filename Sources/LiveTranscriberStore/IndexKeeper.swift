import Foundation
import LiveTranscriberCore

/// Keeps the SQLite index in step with the recording folders: opens it (rebuilding one that is
/// missing, of an older schema or damaged), holds the library's write lock for every change,
/// bumps the generation counter, and knows when the library cannot be changed at all (read-only
/// media, a full disk). See docs/library.md, "Writing without losing anything".
///
/// One of `LibraryStore`'s three parts, with `RecordingFolders` (the truth it indexes) and the
/// drafts. Use one instance per thread, as the store.
final class IndexKeeper {
    let folders: RecordingFolders
    let indexFile: URL
    /// True when the index is read through a memory map (see `LibraryStore.init`'s `memoryMappedIndex`).
    let memoryMapped: Bool
    /// The SQLite index; replaced when it turns out to be damaged (see `withIndex`).
    private(set) var current: LibraryIndex
    /// How deep this keeper is inside its own write lock (the lock is taken once, at depth 1).
    private var writeLockDepth = 0
    /// Why this library cannot be changed, when the index could not be opened or brought in step
    /// for writing; nil when it can be changed. Reads work either way.
    private(set) var writeBlock: LibraryWriteBlock?
    /// True when this keeper found the index damaged and rebuilt it from the folders.
    private(set) var rebuiltDamagedIndex = false {
        didSet { if rebuiltDamagedIndex && !oldValue { onDamagedIndexRebuilt?() } }
    }
    /// Called once when damage is found and the index rebuilt, in any operation after opening.
    var onDamagedIndexRebuilt: (() -> Void)?

    private var directory: URL { folders.directory }

    /// Opens the index of the library whose folders are `folders` (they exist).
    ///
    /// The index is trusted when the generation the writers bump (`library.generation`) and the
    /// recordings folder's change time are the ones it last saw; otherwise the folders are
    /// compared with it and the difference indexed.
    /// - Throws: `SQLiteError` or `FileSystemError` when the index can be neither opened nor built.
    init(folders: RecordingFolders, memoryMapped: Bool) throws {
        self.folders = folders
        self.memoryMapped = memoryMapped
        indexFile = folders.directory.appendingPathComponent(LibraryLayout.index)
        var damaged = false
        do {
            current = try LibraryIndex(file: indexFile, mapped: memoryMapped)
        } catch let error as SQLiteError where error.isDamage && Self.unwritable(folders.directory) == nil {
            current = try Self.setAsideDamagedIndex(indexFile, mapped: memoryMapped)
            damaged = true
        } catch let error as SQLiteError {
            // Read-only media or a full disk: reads still work, from the index read as it is when
            // it matches the folders, else from an index built in memory from the folders.
            guard let block = Self.unwritable(folders.directory) else { throw error }
            writeBlock = block
            let names = Set(try folders.recordingFolderNames())
            if let readOnly = try? LibraryIndex(readingOnly: indexFile), (try? readOnly.ids()) == names {
                current = readOnly
            } else {
                current = try LibraryIndex(inMemory: ())
            }
        }
        if writeBlock != nil {
            if current.isNew { _ = try fill(current) }  // in memory: nothing is written to disk
            return
        }
        rebuiltDamagedIndex = damaged
        if current.isNew {
            try rebuild()
        } else {
            do {
                try withIndex { _ in try synchronizeIfStale() }
            } catch LibraryError.readOnly(let block) {
                // The index is behind the folders and this disk has no room to bring it in step
                // (a save that failed when the disk filled): reads use an index built in memory
                // from the folders, and a purge can still free space.
                writeBlock = block
                current = try LibraryIndex(inMemory: ())
                _ = try fill(current)
            }
        }
    }

    // MARK: Using the index

    /// The index for one operation, with the library's one rule for damage: damage found while
    /// using it (SQLITE_CORRUPT, SQLITE_NOTADB: a page overwritten, a torn disk) sets the file
    /// aside as `.damaged`, rebuilds the index from the folders (the truth), and runs the
    /// operation once more. An operation that is itself the rebuild (`isRebuild`) only gets a
    /// fresh, empty index to run on.
    func withIndex<T>(isRebuild: Bool = false, _ body: (LibraryIndex) throws -> T) throws -> T {
        do {
            return try body(current)
        } catch let error as SQLiteError where error.isDamage {
            current = try Self.setAsideDamagedIndex(indexFile, mapped: memoryMapped)
            rebuiltDamagedIndex = true
            if !isRebuild { try withWriteLock { _ = try fill(current) } }
            return try body(current)
        }
    }

    /// Moves a damaged index (and its WAL and shared-memory files) aside and opens an empty one.
    static func setAsideDamagedIndex(_ indexFile: URL, mapped: Bool) throws -> LibraryIndex {
        for suffix in ["", "-wal", "-shm"] {
            let file = URL(fileURLWithPath: indexFile.path + suffix)
            try? FileManager.default.removeItem(at: URL(fileURLWithPath: file.path + ".damaged"))
            try? FileManager.default.moveItem(at: file, to: URL(fileURLWithPath: file.path + ".damaged"))
        }
        return try LibraryIndex(file: indexFile, mapped: mapped)
    }

    /// Rebuilds the index from the recording folders alone, under the write lock.
    @discardableResult
    func rebuild() throws -> LibraryStore.ReindexResult {
        try withWriteLock {
            try withIndex(isRebuild: true) { try fill($0) }
        }
    }

    /// Replaces everything in `index` with the recording folders, one recording read at a time
    /// (memory stays flat however large the library). The caller holds the write lock.
    func fill(_ index: LibraryIndex) throws -> LibraryStore.ReindexResult {
        var indexed = 0
        var unreadable: [UnreadableRecordingFolder] = []
        try index.replaceAll {
            for id in try folders.recordingFolderNames().sorted() {
                let folder = folders.folder(of: id)
                let entry: (Recording, [TranscriptSegment])
                do {
                    entry = (try readMetadataForIndex(in: folder), try folders.readTranscript(in: folder))
                } catch let error as LibraryError {
                    unreadable.append(UnreadableRecordingFolder(id: id, problem: error))
                    continue
                } catch {
                    // readMetadata and readTranscript throw LibraryError; anything else is named as such.
                    unreadable.append(UnreadableRecordingFolder(id: id, problem: .corrupt(path: folder.path, reason: RecordingFolders.reason(error))))
                    continue
                }
                try index.upsert(entry.0, segments: entry.1, inTransaction: true)  // its id is the folder's name
                indexed += 1
            }
            try index.setUnreadableIDs(Set(unreadable.map(\.id)))
        }
        return LibraryStore.ReindexResult(indexed: indexed, unreadable: unreadable)
    }

    /// `RecordingFolders.readMetadataForIndex`, writing a corrected duration back when the
    /// library can be changed.
    func readMetadataForIndex(in folder: URL) throws -> Recording {
        try folders.readMetadataForIndex(in: folder, writingCorrections: writeBlock == nil)
    }

    /// The index file's size in bytes (with its write-ahead log).
    func indexSize() -> Int64 {
        ["", "-wal"].reduce(Int64(0)) { total, suffix in
            let size = (try? FileManager.default.attributesOfItem(atPath: indexFile.path + suffix)[.size] as? NSNumber)?.int64Value
            return total + (size ?? 0)
        }
    }

    // MARK: The write lock and the generation

    /// Runs `body` holding the library's write lock (waiting for another process's change to end).
    ///
    /// The lock is taken once per keeper: a change that runs inside another (a rebuild after
    /// damage found while saving) does not wait for itself. Taking it, the keeper first brings a
    /// stale index in step, then bumps `library.generation` before anything changes; when `body`
    /// returns, the index records that generation and the recordings folder's stamp. A crash in
    /// between leaves the two generations apart, and the next opening compares the folders. A
    /// change refused for a busy index (`LibraryError.busy`) puts the generation back.
    ///
    /// A library that cannot be changed throws `LibraryError.readOnly` before anything is done,
    /// except a change that frees space (`freeingSpace`, a purge) on a full disk, which then does
    /// without the generation and the index (the next opening compares the folders).
    func withWriteLock<T>(holding held: FileLock? = nil, freeingSpace: Bool = false, _ body: () throws -> T) throws -> T {
        if writeLockDepth > 0 {
            writeLockDepth += 1
            defer { writeLockDepth -= 1 }
            return try body()
        }
        let roomless = writeBlock != nil
        if let block = writeBlock, !(freeingSpace && block.isDiskFull) {
            throw LibraryError.readOnly(block)
        }
        let lock: FileLock
        do {
            lock = try held ?? FileLock.wait(directory.appendingPathComponent(LibraryLayout.writeLock))
        } catch let error as FileSystemError where [EROFS, EACCES, EPERM].contains(error.errno) {
            throw LibraryError.readOnly(Self.unwritable(directory) ?? .refused(reason: String(describing: error)))
        }
        defer { lock.release() }
        writeLockDepth = 1
        defer { writeLockDepth = 0 }
        if roomless { return try body() }
        if !current.isNew {
            do {
                try withIndex { _ in if try !isInStep() { try synchronizeFolders() } }
            } catch let error as SQLiteError where error.isBusy {
                throw LibraryError.busy  // nothing of this command was done yet
            }
        }
        let previous = readGeneration()
        let generation = String((Int(previous) ?? 0) + 1)
        let generationFile = directory.appendingPathComponent(LibraryLayout.generation)
        do {
            try DurableFile.write(Data((generation + "\n").utf8), to: generationFile)
        } catch where Self.isOutOfSpace(error) {
            if !freeingSpace { throw LibraryError.readOnly(.diskFull(path: directory.path)) }
            return try body()  // a purge on a full disk: the next opening compares the folders
        }
        let result: T
        do {
            result = try body()
        } catch LibraryError.busy {
            // A busy index is met before any file is touched (`changeInStep`): nothing changed, so
            // the generation goes back and the next command does not compare the folders (it would
            // wait for the same busy index to do so).
            try? DurableFile.write(Data((previous + "\n").utf8), to: generationFile)
            throw LibraryError.busy
        }
        // The change is done, files and index in step; if the index cannot note the generation
        // now (busy, full), the next opening compares the folders instead.
        try? withIndex { try $0.setSynchronized(generation: generation, stamp: recordingsStamp()) }
        return result
    }

    /// Brings the index in step when the cheap check says it may not be: at open, two small reads.
    /// A generation ahead of the index while another process holds the write lock is a change in
    /// progress, not a crash: that writer brings the index in step, so the index is used as it is.
    private func synchronizeIfStale() throws {
        guard try !isInStep() else { return }
        guard let lock = try FileLock.acquire(directory.appendingPathComponent(LibraryLayout.writeLock)) else {
            // An index never brought in step is one another process is building (a new library, a
            // schema upgrade): it is empty, not behind, so wait for that builder rather than answer from it.
            if try current.synchronizedState() == nil { try withWriteLock {} }
            return
        }
        try withWriteLock(holding: lock) {}  // synchronizes under the lock, then records the generation
    }

    /// True when the index saw the current generation and the recordings folder as it is now.
    private func isInStep() throws -> Bool {
        guard let seen = try current.synchronizedState() else { return false }
        return seen.generation == readGeneration() && seen.stamp == recordingsStamp()
    }

    /// `library.generation`, "0" when missing.
    private func readGeneration() -> String {
        let file = directory.appendingPathComponent(LibraryLayout.generation)
        var text = Substring((try? String(contentsOf: file, encoding: .utf8)) ?? "0")
        // Trimmed without Foundation's CharacterSet, which costs a command-line start more than the rest of this check.
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }

    /// The recordings folder's change time and inode: it changes when a folder is added, removed
    /// or renamed in it, by this program or by hand.
    private func recordingsStamp() -> String {
        var info = stat()
        guard stat(folders.recordings.path, &info) == 0 else { return "missing" }
        let modified = Platform.modificationTime(info)
        return "\(info.st_ino):\(modified.seconds).\(modified.nanoseconds)"
    }

    /// Indexes folders that are not in the index and unindexes ids whose folder is gone. The
    /// caller holds the write lock.
    private func synchronizeFolders() throws {
        let names = Set(try folders.recordingFolderNames())
        let indexed = try current.ids()
        for id in indexed.subtracting(names) { try withIndex { try $0.remove(id: id) } }
        for id in names.subtracting(indexed) {
            let folder = folders.folder(of: id)
            guard let recording = try? readMetadataForIndex(in: folder), let segments = try? folders.readTranscript(in: folder) else { continue }
            try withIndex { try $0.upsert(recording, segments: segments) }
        }
    }

    // MARK: Changing files and the index together

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
            var filesChanged = false
            do {
                return try index.database.writeTransaction {
                    try change(index)
                    let result = try files()
                    filesChanged = true
                    return result
                }
            } catch let error as SQLiteError where error.isBusy && !filesChanged {
                throw LibraryError.busy
            } catch {
                if filesChanged { undo() }
                if let error = error as? SQLiteError, error.isOutOfSpace { throw LibraryError.readOnly(.diskFull(path: directory.path)) }
                throw error
            }
        }
    }

    /// Why nothing can be written in `directory`, or nil when it can: read-only media (or no
    /// permission), or a full disk (no block or no inode free; a file system that counts no
    /// inodes, such as btrfs, which reports 0 of 0, is never full of them).
    static func unwritable(_ directory: URL) -> LibraryWriteBlock? {
        var status = statvfs()
        let known = statvfs(directory.path, &status) == 0
        return writeBlock(path: directory.path, readOnlyMedia: known && status.f_flag & UInt(ST_RDONLY) != 0,
                          writable: access(directory.path, W_OK) == 0,
                          space: known ? (freeBlocks: UInt64(status.f_bavail), inodes: UInt64(status.f_files), freeInodes: UInt64(status.f_favail)) : nil)
    }

    /// `unwritable`'s rule on what `statvfs` and `access` said of the folder at `path`: read-only
    /// media or no permission to write is `.readOnly`; no free block, or no free inode on a file
    /// system that counts inodes (`inodes` > 0; btrfs reports 0 of 0), is `.diskFull`; `space`
    /// nil (statvfs failed) judges by the permission alone.
    static func writeBlock(path: String, readOnlyMedia: Bool, writable: Bool,
                           space: (freeBlocks: UInt64, inodes: UInt64, freeInodes: UInt64)?) -> LibraryWriteBlock? {
        if readOnlyMedia || !writable { return .readOnly(path: path, media: readOnlyMedia) }
        if let space, space.freeBlocks == 0 || (space.inodes > 0 && space.freeInodes == 0) { return .diskFull(path: path) }
        return nil
    }

    /// True for an error that says the disk (or the index on it) has no room, or cannot be written.
    static func isOutOfSpace(_ error: any Error) -> Bool {
        if let error = error as? SQLiteError { return error.isOutOfSpace || error.primaryCode == SQLiteError.readOnlyDatabase }
        if let error = error as? FileSystemError { return error.errno == ENOSPC || error.errno == EDQUOT }
        if case LibraryError.readOnly(let block) = error { return block.isDiskFull }
        return false
    }
}
