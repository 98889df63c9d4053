import Foundation
import LiveTranscriberCore

/// Rebuilding the index from the folders, whole or for some recordings, and what it leaves out
/// (the rules themselves are `IndexKeeper`'s).
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

    /// Rebuilds the index from the recording folders alone.
    ///
    /// One recording is read at a time, so memory stays flat however large the library.
    @discardableResult
    public func reindex() throws -> ReindexResult {
        try keeper.rebuild()
    }

    /// Brings the index in step with these recordings' folders only: each is read again and
    /// indexed, or unindexed when its folder is gone. A folder that cannot be read (a damaged or
    /// half-arrived file) keeps its index entry and is reported in `unreadable`. This is how a
    /// library in iCloud Drive takes what arrived from another device (`LibrarySyncPolicy`'s
    /// `.reindex`); unsafe ids are ignored.
    @discardableResult
    public func reindex(ids: Set<String>) throws -> ReindexResult {
        try keeper.withWriteLock {
            var indexed = 0
            var unreadable: [UnreadableRecordingFolder] = []
            for id in ids.sorted() where RecordingID.isSafe(id) {
                let folder = folders.folder(of: id)
                guard FileManager.default.fileExists(atPath: folder.path) else {
                    try keeper.withIndex { try $0.remove(id: id) }
                    continue
                }
                do {
                    let recording = try keeper.readMetadataForIndex(in: folder)  // its id is the folder's name
                    let segments = try folders.readTranscript(in: folder)
                    try keeper.withIndex { try $0.upsert(recording, segments: segments) }
                    indexed += 1
                } catch let error as LibraryError {
                    unreadable.append(UnreadableRecordingFolder(id: id, problem: error))
                }
            }
            try keeper.withIndex { index in
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
        guard FileManager.default.fileExists(atPath: folders.recordings.path) else { return [] }
        return try keeper.withIndex { try $0.unreadableIDs() }.compactMap { id in
            guard RecordingID.isSafe(id), FileManager.default.fileExists(atPath: folders.folder(of: id).path) else { return nil }
            return folders.unreadableProblem(id).map { UnreadableRecordingFolder(id: id, problem: $0) }
        }
    }

    /// The index file's size in bytes (with its write-ahead log).
    public func indexSize() -> Int64 {
        keeper.indexSize()
    }
}
