import Foundation
import LiveTranscriberCore

/// The recording library on disk: one folder per recording, drafts, trash, and a SQLite index.
///
/// Files are the truth; `library.sqlite` is a cache that `reindex()` rebuilds from the folders
/// (see `LibraryLayout` and docs/library.md). Every file is written under a temporary name,
/// fsync'd and renamed into place; every change takes the library's write lock (`flock` on
/// `library.lock`), so two processes wait for each other instead of losing an update.
/// Use one instance per thread.
///
/// ```swift
/// let store = try LibraryStore(directory: dataDirectory)
/// let draft = try store.createDraft(id: RecordingID.new(date: now), createdAt: now,
///                                   language: "en-US", audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
/// // … write draft.audioFile, store.appendToJournal(segment, draft: draft) per final segment …
/// let recording = try store.saveDraft(draft, name: nil, tags: [], location: nil, durationSeconds: 3, segments: segments)
/// ```
public final class LibraryStore: RecordingStore {
    /// The data directory.
    public let directory: URL
    /// The time zone of default names ("Recording 2026-11-29 20:41").
    public let timeZone: TimeZone
    let recordingsFolder: URL
    let draftsFolder: URL
    let trashFolder: URL
    /// The SQLite index; replaced when it turns out to be damaged (see `withIndex`).
    private var currentIndex: LibraryIndex
    /// True when this store found the index damaged and rebuilt it from the folders.
    public private(set) var rebuiltDamagedIndex = false {
        didSet { if rebuiltDamagedIndex && !oldValue { onDamagedIndexRebuilt?() } }
    }
    /// Called once when damage is found and the index rebuilt, at open or in any later operation.
    public var onDamagedIndexRebuilt: (() -> Void)?
    /// Drafts the last `recoverDrafts()` could not recover, by id, with why (left in `drafts/`).
    public internal(set) var recoveryProblems: [String: String] = [:]

    /// Opens the library in `directory`, creating its folders and index as needed.
    ///
    /// An index that is missing, from an older schema or damaged is rebuilt from the folders;
    /// folders saved while the index was not updated (a crash between the two) are indexed.
    /// - Throws: `FileSystemError` or `SQLiteError` when the directory is not usable.
    public init(directory: URL, timeZone: TimeZone = .current) throws {
        self.directory = directory
        self.timeZone = timeZone
        recordingsFolder = directory.appendingPathComponent(LibraryLayout.recordings, isDirectory: true)
        draftsFolder = directory.appendingPathComponent(LibraryLayout.drafts, isDirectory: true)
        trashFolder = directory.appendingPathComponent(LibraryLayout.trash, isDirectory: true)
        for folder in [directory, recordingsFolder, draftsFolder, trashFolder] {
            try DurableFile.makeFolder(folder)
        }
        let indexFile = directory.appendingPathComponent(LibraryLayout.index)
        do {
            currentIndex = try LibraryIndex(file: indexFile)
        } catch let error as SQLiteError where error.isDamage {
            currentIndex = try Self.freshIndex(replacing: indexFile)
            rebuiltDamagedIndex = true
        }
        if currentIndex.isNew {
            try reindex()
        } else {
            try withIndex { _ in try synchronizeIndex() }
        }
    }

    /// The index for one operation. Damage found while using it (SQLITE_CORRUPT, SQLITE_NOTADB:
    /// a page overwritten, a torn disk) sets the file aside as `.damaged`, rebuilds the index from
    /// the folders, which are the truth, and runs the operation once more.
    func withIndex<T>(_ body: (LibraryIndex) throws -> T) throws -> T {
        do {
            return try body(currentIndex)
        } catch let error as SQLiteError where error.isDamage {
            currentIndex = try Self.freshIndex(replacing: directory.appendingPathComponent(LibraryLayout.index))
            rebuiltDamagedIndex = true
            try reindex()
            return try body(currentIndex)
        }
    }

    var index: LibraryIndex { currentIndex }

    /// Moves a damaged index (and its WAL and shared-memory files) aside and opens an empty one.
    private static func freshIndex(replacing indexFile: URL) throws -> LibraryIndex {
        for suffix in ["", "-wal", "-shm"] {
            let file = URL(fileURLWithPath: indexFile.path + suffix)
            try? FileManager.default.removeItem(at: URL(fileURLWithPath: file.path + ".damaged"))
            try? FileManager.default.moveItem(at: file, to: URL(fileURLWithPath: file.path + ".damaged"))
        }
        return try LibraryIndex(file: indexFile)
    }

    // MARK: RecordingStore

    /// Every saved recording, newest first.
    public func list() throws -> [Recording] {
        try withIndex { try $0.recordings() }
    }

    /// The recording `reference` names: an exact id, a unique id prefix, or "latest".
    /// - Throws: `LibraryError.notFound` or `.ambiguous`.
    public func resolve(_ reference: String) throws -> Recording {
        try RecordingID.resolve(
            reference, latest: { try withIndex { try $0.latest() } },
            exact: { id in try withIndex { try $0.recording(id: id) } },
            prefixed: { prefix in try withIndex { try $0.ids(withPrefix: prefix) } })
    }

    /// The recording's final segments, in start order.
    /// - Throws: `LibraryError.notFound`, or `.corrupt` when `transcript.json` cannot be read.
    public func transcript(of id: String) throws -> [TranscriptSegment] {
        let folder = try existingFolder(of: id)
        return try readTranscript(in: folder)
    }

    /// The recording's audio file (`recordings/<id>/audio.<format>`).
    public func audioFile(of id: String) throws -> URL {
        let recording = try readMetadata(in: try existingFolder(of: id))
        return audioFile(in: folder(of: id), format: recording.audio.format)
    }

    /// Replaces the transcript; the previous one is kept as `transcript.previous.json`.
    public func replaceTranscript(of id: String, with segments: [TranscriptSegment]) throws {
        try withWriteLock {
            let folder = try existingFolder(of: id)
            let current = folder.appendingPathComponent(LibraryLayout.transcript)
            if let previous = try DurableFile.readIfPresent(current) {
                try DurableFile.write(previous, to: folder.appendingPathComponent(LibraryLayout.previousTranscript))
            }
            let sorted = segments.sorted { $0.startSeconds < $1.startSeconds }
            try DurableFile.write(try JSONEncoder.liveTranscriber.encode(sorted), to: current)
            try withIndex { try $0.upsert(try readMetadata(in: folder), segments: sorted) }
        }
    }

    /// Puts back the transcript the last `replaceTranscript` replaced, keeping the current one as
    /// the previous: restoring twice toggles.
    /// - Returns: false (nothing changed) when no previous transcript is kept.
    /// - Throws: `LibraryError.notFound` for an unknown id.
    public func restorePreviousTranscript(of id: String) throws -> Bool {
        try withWriteLock {
            let folder = try existingFolder(of: id)
            let current = folder.appendingPathComponent(LibraryLayout.transcript)
            let previousFile = folder.appendingPathComponent(LibraryLayout.previousTranscript)
            guard let previous = try DurableFile.readIfPresent(previousFile) else { return false }
            let segments = try JSONDecoder.liveTranscriber.decode([TranscriptSegment].self, from: previous)
            if let replaced = try DurableFile.readIfPresent(current) { try DurableFile.write(replaced, to: previousFile) }
            try DurableFile.write(previous, to: current)
            try withIndex { try $0.upsert(try readMetadata(in: folder), segments: segments) }
            return true
        }
    }

    // MARK: Changes

    /// Renames recording `id`. Leading and trailing spaces are dropped.
    /// - Throws: `LibraryError.invalid` for a name `RecordingName.validated` refuses, `.notFound`.
    @discardableResult
    public func rename(_ id: String, to name: String) throws -> Recording {
        let name = try RecordingName.validated(name)
        return try modify(id) { $0.name = name }
    }

    /// Sets recording `id`'s tags by the rules of `RecordingTags` (split at commas, trimmed,
    /// empty ones dropped, one of each regardless of case, order kept).
    /// - Throws: `LibraryError.invalid` for a tag the rules refuse, `.notFound`.
    @discardableResult
    public func setTags(_ id: String, _ tags: [String]) throws -> Recording {
        let tags = try RecordingTags.normalized(tags)
        return try modify(id) { $0.tags = tags }
    }

    /// Adds and removes tags of recording `id` against its tags as stored now (under the write
    /// lock), so concurrent `tag` commands all take effect. Tags match regardless of case; a tag
    /// both added and removed is removed.
    @discardableResult
    public func changeTags(_ id: String, adding: [String], removing: [String]) throws -> Recording {
        _ = try RecordingTags.changed([], adding: adding, removing: removing)  // refuses bad tags before anything changes
        return try modify(id) { recording in
            recording.tags = (try? RecordingTags.changed(recording.tags, adding: adding, removing: removing)) ?? recording.tags
        }
    }

    /// Moves recording `id` to `trash/` (or removes it for good when `purge`) and unindexes it.
    public func delete(_ id: String, purge: Bool = false) throws {
        try withWriteLock {
            let folder = try existingFolder(of: id)
            var destination = trashFolder.appendingPathComponent(purge ? ".purge-\(id)-\(getpid())" : id)
            var attempt = 1
            while FileManager.default.fileExists(atPath: destination.path) {
                attempt += 1
                destination = trashFolder.appendingPathComponent("\(id)-\(attempt)")
            }
            try DurableFile.rename(folder, to: destination)
            try withIndex { try $0.remove(id: id) }
            if purge { try FileManager.default.removeItem(at: destination) }
        }
    }

    /// Matches of `text` in names, transcripts, tags, summaries and languages, best first.
    ///
    /// Any text is safe (see `SearchQuery`): punctuation-only or empty text finds nothing.
    /// - Parameter limit: At most this many hits.
    public func search(_ text: String, limit: Int = 50) throws -> [SearchHit] {
        try withIndex { try $0.search(SearchQuery(text), limit: limit) }
    }

    /// What `reindex()` did.
    public struct ReindexResult: Sendable, Equatable {
        /// Recordings now in the index.
        public var indexed: Int
        /// Folders under `recordings/` whose metadata or transcript could not be read, with why.
        public var unreadable: [String: String]

        public init(indexed: Int, unreadable: [String: String]) {
            self.indexed = indexed
            self.unreadable = unreadable
        }
    }

    /// Rebuilds the index from the recording folders alone.
    @discardableResult
    public func reindex() throws -> ReindexResult {
        try withWriteLock {
            var entries: [(Recording, [TranscriptSegment])] = []
            var unreadable: [String: String] = [:]
            for id in try recordingFolderNames().sorted() {
                do {
                    let folder = folder(of: id)
                    entries.append((try readMetadata(in: folder), try readTranscript(in: folder)))
                } catch {
                    unreadable[id] = String(describing: error)
                }
            }
            do {
                try currentIndex.replaceAll(entries)
            } catch let error as SQLiteError where error.isDamage {
                currentIndex = try Self.freshIndex(replacing: directory.appendingPathComponent(LibraryLayout.index))
                rebuiltDamagedIndex = true
                try currentIndex.replaceAll(entries)
            }
            return ReindexResult(indexed: entries.count, unreadable: unreadable)
        }
    }

    /// A new id for a recording started at `date` (`RecordingID.new`).
    public static func newRecordingID(date: Date) -> String {
        RecordingID.new(date: date)
    }

    // MARK: Internals

    func folder(of id: String) -> URL {
        recordingsFolder.appendingPathComponent(id, isDirectory: true)
    }

    func audioFile(in folder: URL, format: String) -> URL {
        folder.appendingPathComponent("audio.\(format)")
    }

    /// The folder of saved recording `id`; throws `.notFound` for a missing or unsafe id.
    func existingFolder(of id: String) throws -> URL {
        guard Self.isSafeID(id) else { throw LibraryError.notFound(id) }
        let folder = folder(of: id)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LibraryError.notFound(id)
        }
        return folder
    }

    /// Reads, changes and writes a recording's metadata under the write lock, then reindexes it.
    @discardableResult
    public func modify(_ id: String, _ change: (inout Recording) -> Void) throws -> Recording {
        try withWriteLock {
            let folder = try existingFolder(of: id)
            var recording = try readMetadata(in: folder)
            change(&recording)
            try writeMetadata(recording, in: folder)
            try withIndex { try $0.upsert(recording, segments: try readTranscript(in: folder)) }
            return recording
        }
    }

    func readMetadata(in folder: URL) throws -> Recording {
        let file = folder.appendingPathComponent(LibraryLayout.metadata)
        do {
            return try JSONDecoder.liveTranscriber.decode(Recording.self, from: Data(contentsOf: file))
        } catch {
            throw LibraryError.corrupt(path: file.path, reason: Self.reason(error))
        }
    }

    func readTranscript(in folder: URL) throws -> [TranscriptSegment] {
        let file = folder.appendingPathComponent(LibraryLayout.transcript)
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        do {
            return try JSONDecoder.liveTranscriber.decode([TranscriptSegment].self, from: Data(contentsOf: file))
        } catch {
            throw LibraryError.corrupt(path: file.path, reason: Self.reason(error))
        }
    }

    func writeMetadata(_ recording: Recording, in folder: URL) throws {
        try DurableFile.write(try JSONEncoder.liveTranscriber.encode(recording), to: folder.appendingPathComponent(LibraryLayout.metadata))
    }

    /// Names of the folders under `recordings/` (hidden ones and stray files excluded).
    func recordingFolderNames() throws -> [String] {
        try Self.folderNames(in: recordingsFolder)
    }

    /// Names of the sub-folders of `folder` that do not start with ".".
    static func folderNames(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }
    }

    /// Runs `body` holding the library's write lock (waiting for another process's change to end).
    func withWriteLock<T>(_ body: () throws -> T) throws -> T {
        let lock = try FileLock.wait(directory.appendingPathComponent(LibraryLayout.writeLock))
        defer { lock.release() }
        return try body()
    }

    /// Indexes folders that are not in the index and unindexes ids whose folder is gone.
    /// Cheap when nothing differs: one directory listing and one query.
    func synchronizeIndex() throws {
        func differs() throws -> Bool { Set(try recordingFolderNames()) != (try index.ids()) }
        guard try differs() else { return }
        try withWriteLock {
            let folders = Set(try recordingFolderNames())
            let indexed = try index.ids()
            for id in indexed.subtracting(folders) { try index.remove(id: id) }
            for id in folders.subtracting(indexed) {
                let folder = folder(of: id)
                guard let recording = try? readMetadata(in: folder), let segments = try? readTranscript(in: folder) else { continue }
                try withIndex { try $0.upsert(recording, segments: segments) }
            }
        }
    }

    /// The tag rules of `RecordingTags`, cleaning rather than refusing (for saves and recovery).
    static func normalizedTags(_ tags: [String]) -> [String] {
        RecordingTags.cleaned(tags)
    }

    /// True for an id that names one folder (`RecordingID.isSafe`).
    static func isSafeID(_ id: String) -> Bool {
        RecordingID.isSafe(id)
    }

    static func reason(_ error: any Error) -> String {
        if let error = error as? DecodingError {
            switch error {
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
                return context.debugDescription
            @unknown default:
                return "invalid JSON"
            }
        }
        return (error as NSError).localizedDescription
    }
}
