import Foundation
import LiveTranscriberCore

/// Keeping the index in step with the folders: the write lock, the generation counter, the
/// damaged-index rule and rebuilds.
extension LibraryStore {
    /// What `reindex()` did.
    public struct ReindexResult: Sendable, Equatable {
        /// Recordings now in the index.
        public var indexed: Int
        /// Folders under `recordings/` whose metadata or transcript could not be read, with why,
        /// in id order.
        public var unreadable: [UnreadableRecordingFolder]

        public init(indexed: Int, unreadable: [UnreadableRecordingFolder]) {
            self.indexed = indexed
            self.unreadable = unreadable
        }
    }

    /// The index for one operation, with the library's one rule for damage: damage found while
    /// using it (SQLITE_CORRUPT, SQLITE_NOTADB: a page overwritten, a torn disk) sets the file
    /// aside as `.damaged`, rebuilds the index from the folders (the truth), and runs the
    /// operation once more. An operation that is itself the rebuild (`isRebuild`) only gets a
    /// fresh, empty index to run on.
    func withIndex<T>(isRebuild: Bool = false, _ body: (LibraryIndex) throws -> T) throws -> T {
        do {
            return try body(currentIndex)
        } catch let error as SQLiteError where error.isDamage {
            currentIndex = try Self.setAsideDamagedIndex(indexFile, mapped: memoryMappedIndex)
            rebuiltDamagedIndex = true
            if !isRebuild { try withWriteLock { _ = try fill(currentIndex) } }
            return try body(currentIndex)
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

    /// Rebuilds the index from the recording folders alone.
    ///
    /// One recording is read at a time, so memory stays flat however large the library.
    @discardableResult
    public func reindex() throws -> ReindexResult {
        try withWriteLock {
            try withIndex(isRebuild: true) { try fill($0) }
        }
    }

    /// Brings the index in step with these recordings' folders only: each is read again and
    /// indexed, or unindexed when its folder is gone. A folder that cannot be read (a damaged or
    /// half-arrived file) keeps its index entry and is reported in `unreadable`. This is how a
    /// library in iCloud Drive takes what arrived from another device (`LibrarySyncPolicy`'s
    /// `.reindex`); unsafe ids are ignored.
    @discardableResult
    public func reindex(ids: Set<String>) throws -> ReindexResult {
        try withWriteLock {
            var indexed = 0
            var unreadable: [UnreadableRecordingFolder] = []
            for id in ids.sorted() where Self.isSafeID(id) {
                let folder = folder(of: id)
                guard FileManager.default.fileExists(atPath: folder.path) else {
                    try withIndex { try $0.remove(id: id) }
                    continue
                }
                do {
                    let recording = try readMetadataForIndex(in: folder)  // its id is the folder's name
                    let segments = try readTranscript(in: folder)
                    try withIndex { try $0.upsert(recording, segments: segments) }
                    indexed += 1
                } catch let error as LibraryError {
                    unreadable.append(UnreadableRecordingFolder(id: id, problem: error))
                }
            }
            try withIndex { index in
                let now = Set(unreadable.map(\.id))
                try index.setUnreadableIDs(Set(try index.unreadableIDs()).subtracting(ids).union(now))
            }
            return ReindexResult(indexed: indexed, unreadable: unreadable)
        }
    }

    /// Folders under `recordings/` that the index leaves out because their metadata.json or
    /// transcript.json cannot be read, with why (`LibraryError.corrupt`), in id order.
    ///
    /// The list is the one the last rebuild or `reindex(ids:)` recorded in the index (state key
    /// `unreadable`), so no folder is walked: only the folders named there are read again, and
    /// one that reads well now (fixed by hand, not yet reindexed) or is gone is left out. A folder
    /// damaged by hand since the last rebuild shows once `reindex` has run. Nothing is written.
    public func unreadableFolders() throws -> [UnreadableRecordingFolder] {
        guard FileManager.default.fileExists(atPath: recordingsFolder.path) else { return [] }
        return try withIndex { try $0.unreadableIDs() }.compactMap { id in
            guard Self.isSafeID(id), FileManager.default.fileExists(atPath: folder(of: id).path) else { return nil }
            return unreadableProblem(id).map { UnreadableRecordingFolder(id: id, problem: $0) }
        }
    }

    /// Why recording folder `id` cannot be read, or nil when it reads well.
    func unreadableProblem(_ id: String) -> LibraryError? {
        let folder = folder(of: id)
        do {
            _ = try readMetadata(in: folder)
            _ = try readTranscript(in: folder)
            return nil
        } catch let error as LibraryError {
            return error
        } catch {
            return .corrupt(path: folder.path, reason: Self.reason(error))
        }
    }

    /// The index file's size in bytes (with its write-ahead log).
    public func indexSize() -> Int64 {
        ["", "-wal"].reduce(Int64(0)) { total, suffix in
            let size = (try? FileManager.default.attributesOfItem(atPath: indexFile.path + suffix)[.size] as? NSNumber)?.int64Value
            return total + (size ?? 0)
        }
    }

    /// Replaces everything in `index` with the recording folders. The caller holds the write lock.
    func fill(_ index: LibraryIndex) throws -> ReindexResult {
        var indexed = 0
        var unreadable: [UnreadableRecordingFolder] = []
        try index.replaceAll {
            for id in try recordingFolderNames().sorted() {
                let entry: (Recording, [TranscriptSegment])
                do {
                    let folder = folder(of: id)
                    entry = (try readMetadataForIndex(in: folder), try readTranscript(in: folder))
                } catch let error as LibraryError {
                    unreadable.append(UnreadableRecordingFolder(id: id, problem: error))
                    continue
                } catch {
                    // readMetadata and readTranscript throw LibraryError; anything else is named as such.
                    unreadable.append(UnreadableRecordingFolder(id: id, problem: .corrupt(path: folder(of: id).path, reason: Self.reason(error))))
                    continue
                }
                try index.upsert(entry.0, segments: entry.1, inTransaction: true)  // its id is the folder's name
                indexed += 1
            }
            try index.setUnreadableIDs(Set(unreadable.map(\.id)))
        }
        return ReindexResult(indexed: indexed, unreadable: unreadable)
    }

    /// Runs `body` holding the library's write lock (waiting for another process's change to end).
    ///
    /// The lock is taken once per store: a change that runs inside another (a rebuild after
    /// damage found while saving) does not wait for itself. Taking it, the store first brings a
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
        let roomless = writeBlockedReason != nil
        if let reason = writeBlockedReason, !(freeingSpace && blockedByFullDisk) {
            throw LibraryError.readOnly(reason: reason)
        }
        let lock: FileLock
        do {
            lock = try held ?? FileLock.wait(directory.appendingPathComponent(LibraryLayout.writeLock))
        } catch let error as FileSystemError where [EROFS, EACCES, EPERM].contains(error.errno) {
            throw LibraryError.readOnly(reason: Self.unwritable(directory)?.reason ?? String(describing: error))
        }
        defer { lock.release() }
        writeLockDepth = 1
        defer { writeLockDepth = 0 }
        if roomless { return try body() }
        if !currentIndex.isNew {
            do {
                try withIndex { _ in if try !isInStep() { try synchronizeFolders() } }
            } catch let error as SQLiteError where error.primaryCode == 5 || error.primaryCode == 6 {
                throw LibraryError.busy  // nothing of this command was done yet
            }
        }
        let previous = readGeneration()
        let generation = String((Int(previous) ?? 0) + 1)
        let generationFile = directory.appendingPathComponent(LibraryLayout.generation)
        do {
            try DurableFile.write(Data((generation + "\n").utf8), to: generationFile)
        } catch where Self.isOutOfSpace(error) {
            if !freeingSpace { throw LibraryError.readOnly(reason: Self.fullDiskReason(directory)) }
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
    func synchronizeIfStale() throws {
        guard try !isInStep() else { return }
        guard let lock = try FileLock.acquire(directory.appendingPathComponent(LibraryLayout.writeLock)) else {
            // An index never brought in step is one another process is building (a new library, a
            // schema upgrade): it is empty, not behind, so wait for that builder rather than answer from it.
            if try currentIndex.synchronizedState() == nil { try withWriteLock {} }
            return
        }
        try withWriteLock(holding: lock) {}  // synchronizes under the lock, then records the generation
    }

    /// True when the index saw the current generation and the recordings folder as it is now.
    func isInStep() throws -> Bool {
        guard let seen = try currentIndex.synchronizedState() else { return false }
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
        guard stat(recordingsFolder.path, &info) == 0 else { return "missing" }
        let modified = Platform.modificationTime(info)
        return "\(info.st_ino):\(modified.seconds).\(modified.nanoseconds)"
    }

    /// Indexes folders that are not in the index and unindexes ids whose folder is gone. The
    /// caller holds the write lock.
    private func synchronizeFolders() throws {
        let folders = Set(try recordingFolderNames())
        let indexed = try currentIndex.ids()
        for id in indexed.subtracting(folders) { try withIndex { try $0.remove(id: id) } }
        for id in folders.subtracting(indexed) {
            let folder = folder(of: id)
            guard let recording = try? readMetadataForIndex(in: folder), let segments = try? readTranscript(in: folder) else { continue }
            try withIndex { try $0.upsert(recording, segments: segments) }
        }
    }
}
