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
/// The parts: this file opens the library and reads it; `+Changes` renames, tags, deletes and
/// replaces transcripts; `+Drafts` records, saves and recovers; `+Index` keeps the index in step
/// (the write lock, the generation counter, damage and rebuilds); `+Files` reads and writes a
/// recording's folder.
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
    /// The time zone of default names ("Recording 2026-11-29 20:41"), found when first needed:
    /// looking up the system's zone costs a command that only reads about a third of a millisecond.
    public var timeZone: TimeZone { timeZoneSource() }
    private let timeZoneSource: @Sendable () -> TimeZone
    /// Reads recordings' audio files (libsndfile on Linux, AVFoundation on iOS).
    let audioMeasure: any AudioFileMeasuring
    /// Coordinates reads and changes of recording folders with other processes (iCloud Drive).
    let files: any FileCoordinating
    let recordingsFolder: URL
    let draftsFolder: URL
    let trashFolder: URL
    let indexFile: URL
    /// The SQLite index; replaced when it turns out to be damaged (see `withIndex`).
    var currentIndex: LibraryIndex
    /// True when the index is read through a memory map (see `init`'s `memoryMappedIndex`).
    let memoryMappedIndex: Bool
    /// How deep this store is inside its own write lock (the lock is taken once, at depth 1).
    var writeLockDepth = 0
    /// True when this store found the index damaged and rebuilt it from the folders.
    public internal(set) var rebuiltDamagedIndex = false {
        didSet { if rebuiltDamagedIndex && !oldValue { onDamagedIndexRebuilt?() } }
    }
    /// Called once when damage is found and the index rebuilt, at open or in any later operation.
    public var onDamagedIndexRebuilt: (() -> Void)?
    /// Drafts the last `recoverDrafts()` could not recover, by id, with why (left in `drafts/`).
    public internal(set) var recoveryProblems: [String: String] = [:]
    /// What the last `recoverDrafts()` wants the user to know about a recovered draft, by id
    /// (such as a damaged `draft.json`: the audio was kept, the name was lost).
    public internal(set) var recoveryNotes: [String: String] = [:]
    /// Why this library cannot be changed (read-only media, a full disk), when the index could not
    /// be opened for writing; nil when it can be changed. Reads work either way.
    public internal(set) var writeBlockedReason: String?
    /// True when `writeBlockedReason` is a full disk (a purge may still free space).
    var blockedByFullDisk = false

    /// True when `directory` holds a library: its `recordings/` or `drafts/` folder exists. Reads
    /// only those two names; for commands that must not create a library just to read it.
    public static func exists(in directory: URL) -> Bool {
        [LibraryLayout.recordings, LibraryLayout.drafts].contains {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }
    }

    /// Opens the library in `directory`, creating its folders and index as needed.
    ///
    /// Opening costs the same for ten recordings or ten thousand: the index is trusted when the
    /// generation the writers bump (`library.generation`) and the recordings folder's change time
    /// are the ones it last saw. Otherwise (a crash between a folder change and the index update,
    /// a folder copied in by hand) the folders are compared with the index and the difference
    /// indexed. An index that is missing, of an older schema or damaged is rebuilt from the folders.
    /// `audioMeasure` reads the audio files: when a draft is recovered after a crash (its header
    /// repaired, its length measured) and when a recording is saved. On Linux
    /// `LiveTranscriberLinux` adds `init(directory:timeZone:)`, which passes libsndfile's.
    /// `fileCoordinator` wraps every read and change of a recording folder (`FileCoordinating`):
    /// the iPhone app's `NSFileCoordinator` adapter for a library in iCloud Drive.
    /// `recordingsFolder` puts the saved recordings somewhere else than `directory/recordings`
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
        self.directory = directory
        self.memoryMappedIndex = memoryMappedIndex
        timeZoneSource = timeZone
        self.audioMeasure = audioMeasure
        self.files = fileCoordinator
        self.recordingsFolder = recordingsFolder ?? directory.appendingPathComponent(LibraryLayout.recordings, isDirectory: true)
        draftsFolder = directory.appendingPathComponent(LibraryLayout.drafts, isDirectory: true)
        trashFolder = directory.appendingPathComponent(LibraryLayout.trash, isDirectory: true)
        indexFile = directory.appendingPathComponent(LibraryLayout.index)
        for folder in [directory, self.recordingsFolder, draftsFolder, trashFolder] {
            try DurableFile.makeFolder(folder)
        }
        var damaged = false
        var blocked: (reason: String, fullDisk: Bool)?
        do {
            currentIndex = try LibraryIndex(file: indexFile, mapped: memoryMappedIndex)
        } catch let error as SQLiteError where error.isDamage && Self.unwritable(directory) == nil {
            currentIndex = try Self.setAsideDamagedIndex(indexFile, mapped: memoryMappedIndex)
            damaged = true
        } catch let error as SQLiteError {
            // Read-only media or a full disk: reads still work, from the index read as it is when
            // it matches the folders, else from an index built in memory from the folders.
            guard let reason = Self.unwritable(directory) else { throw error }
            blocked = reason
            let folders = Set(try Self.folderNames(in: self.recordingsFolder))
            if let readOnly = try? LibraryIndex(readingOnly: indexFile), (try? readOnly.ids()) == folders {
                currentIndex = readOnly
            } else {
                currentIndex = try LibraryIndex(inMemory: ())
            }
        }
        if let blocked {
            writeBlockedReason = blocked.reason
            blockedByFullDisk = blocked.fullDisk
            if currentIndex.isNew { _ = try fill(currentIndex) }  // in memory: nothing is written to disk
            return
        }
        rebuiltDamagedIndex = damaged
        if currentIndex.isNew {
            try reindex()
        } else {
            do {
                try withIndex { _ in try synchronizeIfStale() }
            } catch LibraryError.readOnly(let reason) {
                // The index is behind the folders and this disk has no room to bring it in step
                // (a save that failed when the disk filled): reads use an index built in memory
                // from the folders, and a purge can still free space.
                writeBlockedReason = reason
                blockedByFullDisk = Self.unwritable(directory)?.fullDisk ?? true
                currentIndex = try LibraryIndex(inMemory: ())
                _ = try fill(currentIndex)
            }
        }
    }

    // MARK: Reading

    /// Saved recordings that pass `request`'s filters, newest first, one page.
    public func list(_ request: ListRequest) throws -> [Recording] {
        try withIndex { index in try index.database.readTransaction { try index.recordings(request) } }
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
                reference, latest: { try withIndex { try $0.latest() } },
                exact: { id in try withIndex { try $0.recording(id: id) } },
                prefixed: { prefix in try withIndex { try $0.ids(withPrefix: prefix) } })
        } catch LibraryError.notFound(let missing) where !RecordingID.isLatest(missing) {
            throw unreadableFolderError(named: missing) ?? LibraryError.notFound(missing)
        }
        let checked = withDurationChecked(recording, in: folder(of: recording.id))
        guard checked != recording, writeBlockedReason == nil else { return checked }
        // The correction is a repair, not the command's purpose: when it cannot be written (a busy
        // index, a disk that just filled), the corrected value is still what the caller gets.
        return (try? modify(recording.id) { _ in }) ?? checked
    }

    /// True when `id` names, exactly, a recording folder whose metadata.json or transcript.json
    /// cannot be read (so `resolve` refuses it); such a folder can still be deleted by its id.
    public func isUnreadableFolder(_ id: String) -> Bool {
        Self.isSafeID(id) && FileManager.default.fileExists(atPath: folder(of: id).path) && unreadableProblem(id) != nil
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
            guard let id = unreadableFolderID(named: trimmed), let stored = try? readMetadata(in: folder(of: id)) else {
                throw LibraryError.corrupt(path: path, reason: reason)
            }
            return withDurationChecked(stored, in: folder(of: id))
        }
    }

    /// The one recording folder `reference` names (exactly, else as the only folder with that
    /// prefix, `UnreadableRecordingFolder.named`) when it cannot be read, else nil.
    private func unreadableFolderID(named reference: String) -> String? {
        guard let names = try? recordingFolderNames().filter({ Self.isSafeID($0) }),
              let id = UnreadableRecordingFolder.named(reference, among: names), unreadableProblem(id) != nil else { return nil }
        return id
    }

    /// The error for a reference that the index does not know but that names one recording
    /// folder (exactly, else as the only folder with that prefix) that cannot be read. When it is
    /// the transcript that cannot be read, the error adds that re-transcribing repairs it
    /// (`resolveForNewTranscript`).
    private func unreadableFolderError(named reference: String) -> LibraryError? {
        guard let id = unreadableFolderID(named: reference), let problem = unreadableProblem(id) else { return nil }
        let error = UnreadableRecordingFolder(id: id, problem: problem).resolveError
        guard case .corrupt(let path, let reason) = error, path == folder(of: id).appendingPathComponent(LibraryLayout.transcript).path else {
            return error
        }
        return .corrupt(path: path, reason: reason + ", or rebuild the transcript from the audio with 'livetranscriber retranscribe \(id)'")
    }

    /// Recordings matching `request.text`, best first, a page of them, each with its best places
    /// (see `LibraryIndex.search`). Any text is safe (see `SearchQuery`).
    public func search(_ request: SearchRequest) throws -> [SearchResult] {
        let query = SearchQuery(request.text)
        // One read transaction: the ranking and the places come from the same snapshot.
        return try withIndex { index in
            try index.database.readTransaction {
                try index.search(query, limit: request.limit, offset: request.offset, placesPerRecording: request.placesPerRecording)
            }
        }
    }

    /// Saved recordings whose audio content digest is `digest`, newest first.
    public func recordings(withAudioDigest digest: String) throws -> [Recording] {
        try withIndex { try $0.recordings(withAudioDigest: digest) }
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
}
