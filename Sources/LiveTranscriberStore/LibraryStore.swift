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
/// A facade over three parts: `RecordingFolders` (the folders, the truth), `IndexKeeper` (the
/// SQLite index, the write lock, the generation, whether the library can be changed) and
/// `LibraryDrafts` (recording, saving and recovering drafts). This file opens the library and
/// reads it; `+Changes` renames, tags, deletes and replaces transcripts; `+Drafts` forwards the
/// drafts API; `+Index` rebuilds.
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
    public var directory: URL { folders.directory }
    /// The time zone of default names ("Recording 2026-11-29 20:41"), found when first needed:
    /// looking up the system's zone costs a command that only reads about a third of a millisecond.
    public var timeZone: TimeZone { timeZoneSource() }
    private let timeZoneSource: @Sendable () -> TimeZone
    /// The recording folders: layout, JSON files, file coordination, the duration rule.
    let folders: RecordingFolders
    /// The index, the write lock and the generation, and whether the library can be changed.
    let keeper: IndexKeeper
    /// True when this store found the index damaged and rebuilt it from the folders.
    public var rebuiltDamagedIndex: Bool { keeper.rebuiltDamagedIndex }
    /// Called once when damage is found and the index rebuilt, in any operation after opening.
    public var onDamagedIndexRebuilt: (() -> Void)? {
        get { keeper.onDamagedIndexRebuilt }
        set { keeper.onDamagedIndexRebuilt = newValue }
    }
    /// Drafts: create, journal, save, discard, recover.
    let drafts: LibraryDrafts
    /// Why this library cannot be changed (read-only media, a folder the user may not write, a full
    /// disk): found when the index could not be opened or brought in step for writing, or else
    /// looked up now (`writeBlock(at:)`, one `statvfs` and one `access`), so a library made
    /// read-only after it was opened (a resident `serve`) says so too; nil when it can be changed.
    /// Reads work either way.
    public var writeBlock: LibraryWriteBlock? { keeper.writeBlock ?? Self.writeBlock(at: directory) }

    /// Why a library in `directory` cannot be changed now: its media is read-only, the user may
    /// not write the folder, or its disk has no free block or inode; nil when it can be changed.
    /// A folder that does not exist yet is judged by the nearest folder above it that does (where
    /// it would be made). For a caller that has no store open (the page's Record button).
    public static func writeBlock(at directory: URL) -> LibraryWriteBlock? {
        var folder = directory.standardizedFileURL
        while !FileManager.default.fileExists(atPath: folder.path), folder.path != "/" { folder.deleteLastPathComponent() }
        guard let block = IndexKeeper.unwritable(folder) else { return nil }
        // Said of the library's folder, as the user named it.
        switch block {
        case .readOnly(_, let media): return .readOnly(path: directory.path, media: media)
        case .diskFull: return .diskFull(path: directory.path)
        case .refused: return block
        }
    }

    /// True when `directory` holds a library: its `recordings/` or `drafts/` folder exists. Reads
    /// only those two names; for commands that must not create a library just to read it.
    /// - Throws: `LibraryUnreadable` when they cannot be looked up (no permission to search
    ///   `directory`): a library this user cannot read is not an empty one.
    public static func exists(in directory: URL) throws -> Bool {
        for name in [LibraryLayout.recordings, LibraryLayout.drafts] {
            var info = stat()
            if stat(directory.appendingPathComponent(name).path, &info) == 0 {
                if info.st_mode & S_IFMT == S_IFDIR { return true }
                continue
            }
            let error = errno
            guard error == ENOENT || error == ENOTDIR else { throw LibraryUnreadable(directory: directory.path, errno: error) }
        }
        return false
    }

    /// Opens the library in `directory`, creating its folders and index as needed.
    ///
    /// Opening costs the same for ten recordings or ten thousand: the index is trusted when the
    /// generation the writers bump (`library.generation`) and the recordings folder's change time
    /// are the ones it last saw. Otherwise (a crash between a folder change and the index update,
    /// a folder copied in by hand) the folders are compared with the index and the difference
    /// indexed. An index that is missing, of an older schema or damaged is rebuilt from the folders.
    /// `folders.audioMeasure` reads the audio files: when a draft is recovered after a crash (its header
    /// repaired, its length measured) and when a recording is saved. On Linux
    /// `LiveTranscriberLinux` adds `init(directory:timeZone:)`, which passes libsndfile's.
    /// `fileCoordinator` wraps every read and change of a recording folder (`FileCoordinating`):
    /// the iPhone app's `NSFileCoordinator` adapter for a library in iCloud Drive.
    /// `folders.recordings` puts the saved recordings somewhere else than `directory/recordings`
    /// (the iPhone app's iCloud Drive folder), while the index, its lock and generation, drafts
    /// and trash stay in `directory` on the device: only recordings are shared, never an index or
    /// a draft being written. It must be on the same volume (a save is one rename).
    /// `memoryMappedIndex` reads the index through a memory map (true, the default: fastest for a
    /// process that searches again and again, such as an app) or with read(2) (false: cheaper for
    /// a process that answers one command and exits, which would map, fault in and unmap every
    /// page it reads: about 2 ms of CPU for a two-character CJK query on 10,000 recordings).
    /// - Throws: `FileSystemError` or `SQLiteError` when the directory is not usable.
    public init(directory: URL, timeZone: @autoclosure @escaping @Sendable () -> TimeZone = .current, audioMeasure: any AudioFileMeasuring,
                fileCoordinator: any FileCoordinating = UncoordinatedFiles(), recordingsFolder: URL? = nil,
                memoryMappedIndex: Bool = true) throws {
        timeZoneSource = timeZone
        folders = RecordingFolders(directory: directory, recordings: recordingsFolder, audioMeasure: audioMeasure, files: fileCoordinator)
        for folder in [directory, folders.recordings, folders.drafts, folders.trash] {
            try DurableFile.makeFolder(folder)
        }
        keeper = try IndexKeeper(folders: folders, memoryMapped: memoryMappedIndex)
        drafts = LibraryDrafts(folders: folders, keeper: keeper, timeZone: timeZone)
    }

    // MARK: Reading

    /// Saved recordings that pass `request`'s filters, newest first, one page.
    public func list(_ request: ListRequest) throws -> [Recording] {
        try keeper.withIndex { index in try index.database.readTransaction { try index.recordings(request) } }
    }

    /// The recording `reference` names: an exact id, a unique id prefix, or "latest".
    ///
    /// A duration longer than the recording's audio (metadata written before the rule) is
    /// corrected here, and written back when the library can be changed.
    /// - Throws: `LibraryError.notFound` or `.ambiguous`; `.corrupt` when `reference` names a
    ///   recording folder (by id or unique prefix) whose metadata.json or transcript.json cannot
    ///   be read, so the index leaves it out: the reason says which file, why, and what to do.
    public func resolve(_ reference: String) throws -> Recording {
        let recording: Recording
        do {
            recording = try RecordingID.resolve(
                reference, latest: { try keeper.withIndex { try $0.latest() } },
                exact: { id in try keeper.withIndex { try $0.recording(id: id) } },
                prefixed: { prefix in try keeper.withIndex { try $0.ids(withPrefix: prefix) } })
        } catch LibraryError.notFound(let missing) where !RecordingID.isLatest(missing) {
            throw unreadableFolderError(named: missing) ?? LibraryError.notFound(missing)
        }
        let checked = folders.withDurationChecked(recording, in: folders.folder(of: recording.id))
        guard checked != recording, writeBlock == nil else { return checked }
        // The correction is a repair, not the command's purpose: when it cannot be written (a busy
        // index, a disk that just filled), the corrected value is still what the caller gets.
        return (try? modify(recording.id) { _ in }) ?? checked
    }

    /// True when `id` names, exactly, a recording folder whose metadata.json or transcript.json
    /// cannot be read (so `resolve` refuses it); such a folder can still be deleted by its id.
    public func isUnreadableFolder(_ id: String) -> Bool {
        RecordingID.isSafe(id) && FileManager.default.fileExists(atPath: folders.folder(of: id).path) && folders.unreadableProblem(id) != nil
    }

    /// The recording `reference` names, as `resolve` finds it, or else a recording folder it names
    /// whose metadata.json can be read but whose transcript.json cannot (so the index leaves it
    /// out): for re-transcription and restoring the previous transcript, which repair it.
    /// - Throws: what `resolve` throws.
    public func resolveForNewTranscript(_ reference: String) throws -> Recording {
        do {
            return try resolve(reference)
        } catch LibraryError.corrupt(let path, let reason) {
            let trimmed = reference.trimmingCharacters(in: .whitespaces)
            guard let id = unreadableFolderID(named: trimmed), let stored = try? folders.readMetadata(in: folders.folder(of: id)) else {
                throw LibraryError.corrupt(path: path, reason: reason)
            }
            return folders.withDurationChecked(stored, in: folders.folder(of: id))
        }
    }

    /// The one recording folder `reference` names (exactly, else as the only folder with that
    /// prefix, `UnreadableRecordingFolder.named`) when it cannot be read, else nil.
    private func unreadableFolderID(named reference: String) -> String? {
        guard let names = try? folders.recordingFolderNames().filter({ RecordingID.isSafe($0) }),
              let id = UnreadableRecordingFolder.named(reference, among: names), folders.unreadableProblem(id) != nil else { return nil }
        return id
    }

    /// The error for a reference that the index does not know but that names one recording
    /// folder (exactly, else as the only folder with that prefix) that cannot be read. When it is
    /// the transcript that cannot be read, the error adds that re-transcribing repairs it
    /// (`resolveForNewTranscript`).
    private func unreadableFolderError(named reference: String) -> LibraryError? {
        guard let id = unreadableFolderID(named: reference), let problem = folders.unreadableProblem(id) else { return nil }
        let error = UnreadableRecordingFolder(id: id, problem: problem).resolveError
        guard case .corrupt(let path, let reason) = error, path == folders.folder(of: id).appendingPathComponent(LibraryLayout.transcript).path else {
            return error
        }
        return .corrupt(path: path, reason: reason + ", or rebuild the transcript from the audio with 'livetranscriber retranscribe \(id)'")
    }

    /// Recordings matching `request.text`, best first, a page of them, each with its best places
    /// (see `LibraryIndex.search`). Any text is safe (see `SearchQuery`).
    public func search(_ request: SearchRequest) throws -> [SearchResult] {
        let query = SearchQuery(request.text)
        // One read transaction: the ranking and the places come from the same snapshot.
        return try keeper.withIndex { index in
            try index.database.readTransaction {
                try index.search(query, limit: request.limit, offset: request.offset, placesPerRecording: request.placesPerRecording)
            }
        }
    }

    /// Saved recordings whose audio content digest is `digest`, newest first.
    public func recordings(withAudioDigest digest: String) throws -> [Recording] {
        try keeper.withIndex { try $0.recordings(withAudioDigest: digest) }
    }

    /// Every tag, one of each regardless of case (`RecordingTags.all`), from the newest recording
    /// holding each tag only (`LibraryIndex.newestRecordingPerTag`): one row per distinct tag read
    /// and decoded, not one per recording.
    public func allTags() throws -> [String] {
        try keeper.withIndex { index in try index.database.readTransaction { RecordingTags.all(in: try index.newestRecordingPerTag()) } }
    }

    /// The recording's final segments, in start order.
    /// - Throws: `LibraryError.notFound`, or `.corrupt` when `transcript.json` cannot be read.
    public func transcript(of id: String) throws -> [TranscriptSegment] {
        let folder = try folders.existingFolder(of: id)
        return try folders.readTranscript(in: folder)
    }

    /// The recording's audio file (`recordings/<id>/audio.<format>`).
    public func audioFile(of id: String) throws -> URL {
        let recording = try folders.readMetadata(in: try folders.existingFolder(of: id))
        return folders.audioFile(in: folders.folder(of: id), format: recording.audio.format)
    }

    /// True when saved recording `id`'s audio file is gone from its folder (`MissingAudioFile`).
    public func isAudioMissing(_ id: String) -> Bool {
        // An id with no readable recording is another fault (`resolve` names it), not this one.
        guard let recording = try? folders.readMetadata(in: try folders.existingFolder(of: id)) else { return false }
        return folders.isAudioMissing(recording)
    }
}

/// A library folder this process cannot look into (`LibraryStore.exists(in:)`): "the library in
/// /srv/lib cannot be read: Permission denied".
public struct LibraryUnreadable: Error, Equatable, CustomStringConvertible {
    /// The library's folder.
    public var directory: String
    /// Why, as `stat(2)` said it.
    public var errno: Int32

    public var description: String {
        "the library in \(directory) cannot be read: \(String(cString: strerror(errno)))"
    }
}
