import Foundation
import LiveTranscriberCore

/// The library's drafts: in-progress recordings (created before any audio is written, each final
/// segment journaled and fsync'd), their save into `recordings/`, discard, and crash recovery.
///
/// One of `LibraryStore`'s three parts, with `RecordingFolders` and `IndexKeeper` (every change
/// here takes its write lock). The store forwards its `RecordingDraftStore` calls here.
final class LibraryDrafts {
    let folders: RecordingFolders
    let keeper: IndexKeeper
    private let timeZoneSource: @Sendable () -> TimeZone
    /// The time zone of default names.
    var timeZone: TimeZone { timeZoneSource() }
    /// Drafts the last `recoverDrafts()` could not recover, by id, with why (left in `drafts/`).
    private(set) var recoveryProblems: [String: DraftRecoveryProblem] = [:]
    /// What the last `recoverDrafts()` wants the user to know about a recovered draft, by id.
    private(set) var recoveryNotes: [String: DraftRecoveryNote] = [:]
    private var writeBlock: LibraryWriteBlock? { keeper.writeBlock }

    init(folders: RecordingFolders, keeper: IndexKeeper, timeZone: @escaping @Sendable () -> TimeZone) {
        self.folders = folders
        self.keeper = keeper
        timeZoneSource = timeZone
    }

    /// Creates `drafts/<id>/` with `draft.json` and a held `lock`; the recorder then writes
    /// `audioFile` and journals final segments.
    ///
    /// - Parameters:
    ///   - id: From `newRecordingID(date:)`; must not name an existing draft or recording.
    ///   - createdAt: When recording started (kept to the second, as JSON stores it).
    ///   - name, tags: Given up front (`record --name --tags`), kept if the draft is recovered.
    ///   - vocabulary: The recognizer's terms, kept likewise (`draft.json`).
    ///   - keepIfInterrupted: False for a draft nothing of which may survive a crash (`record
    ///     --discard`, an `import`, which can simply be run again): its folder gets the `discard`
    ///     marker before any other file, and recovery removes it instead of saving it.
    /// - Throws: `LibraryError.invalid` for a bad or taken id; file system errors.
    func createDraft(
        id: String, createdAt: Date, language: String, audio: AudioDescription,
        name: String? = nil, tags: [String] = [], keepIfInterrupted: Bool = true, vocabulary: [String] = []
    ) throws -> RecordingDraft {
        guard RecordingID.isSafe(id) else { throw LibraryError.invalid("'\(id)' cannot be a recording id.") }
        // A draft is written only in a format a crash leaves readable (`RecordingAudioFormat.draftFormat`).
        let direct = RecordingAudioFormat.allCases.filter { !$0.isEncodedOnSave }
        guard let format = audio.format.known else {
            throw LibraryError.invalid("unknown audio format '\(audio.format)'; use \(RecordingAudioFormat.list(direct)).")
        }
        guard !format.isEncodedOnSave else {
            throw LibraryError.invalid("a draft cannot be recorded as '\(audio.format)'; use \(RecordingAudioFormat.list(direct))"
                + " (an M4A recording is recorded as WAV and encoded when it is saved).")
        }
        // Under the write lock, so a concurrent recoverDrafts never sees the folder before its lock is held.
        return try keeper.withWriteLock {
            guard !FileManager.default.fileExists(atPath: folders.folder(of: id).path) else {
                throw LibraryError.invalid("a recording with id '\(id)' already exists.")
            }
            let draftFolder = folders.drafts.appendingPathComponent(id, isDirectory: true)
            guard mkdir(draftFolder.path, 0o755) == 0 else {
                if errno == EEXIST { throw LibraryError.invalid("a draft with id '\(id)' already exists.") }
                throw FileSystemError(call: "mkdir", path: draftFolder.path, errno: errno)
            }
            if !keepIfInterrupted {
                try DurableFile.write(Data(), to: draftFolder.appendingPathComponent(LibraryLayout.discardMarker))
            }
            guard let lock = try FileLock.acquire(draftFolder.appendingPathComponent(LibraryLayout.draftLock)) else {
                throw LibraryError.invalid("the draft '\(id)' is being recorded by another process.")
            }
            let createdAt = Date(timeIntervalSince1970: createdAt.timeIntervalSince1970.rounded(.down))
            let draft = RecordingDraft(id: id, folder: draftFolder, createdAt: createdAt, language: language, audio: audio, lock: lock,
                                       keepIfInterrupted: keepIfInterrupted)
            let manifest = DraftManifest(
                id: id, createdAt: createdAt, language: language, audio: audio,
                name: name, tags: tags.isEmpty ? nil : RecordingTags.cleaned(tags), vocabulary: vocabulary.isEmpty ? nil : vocabulary
            )
            try DurableFile.write(try JSONEncoder.liveTranscriber.encode(manifest), to: draft.manifestFile)
            try DurableFile.syncFolder(folders.drafts)
            return draft
        }
    }

    /// Rewrites the draft's `draft.json` with `language` (atomically: a crash leaves the old or the
    /// new file). Only the process that holds the draft's lock writes it.
    /// - Throws: file system errors; `LibraryError.invalid` when `draft.json` cannot be read.
    func updateLanguage(_ language: String, draft: RecordingDraft) throws {
        var manifest: DraftManifest
        do {
            manifest = try JSONDecoder.liveTranscriber.decode(DraftManifest.self, from: Data(contentsOf: draft.manifestFile))
        } catch {
            throw LibraryError.invalid("the draft '\(draft.id)' has no readable \(LibraryLayout.draftManifest).")
        }
        manifest.language = language
        try DurableFile.write(try JSONEncoder.liveTranscriber.encode(manifest), to: draft.manifestFile)
    }

    /// The draft's language as `draft.json` states it (`updateLanguage` may have changed it since
    /// the draft began), else the one it began with.
    private static func language(of draft: RecordingDraft) -> String {
        (try? JSONDecoder.liveTranscriber.decode(DraftManifest.self, from: Data(contentsOf: draft.manifestFile)))?.language ?? draft.language
    }

    /// Appends one final segment to the draft's `journal.jsonl` (one JSON object per line) and
    /// fsyncs it, so a crash loses no final segment.
    func appendToJournal(_ segment: TranscriptSegment, draft: RecordingDraft) throws {
        try DurableFile.append(Data((try JSONText.line(segment) + "\n").utf8), to: draft.journalFile)
    }

    /// Saves the draft as a recording: writes its transcript and metadata, moves the folder into
    /// `recordings/` with one rename, indexes it, and releases the draft's lock.
    ///
    /// - Parameters:
    ///   - name: Nil or blank for the default, "Recording 2026-11-29 20:41" (in `timeZone`).
    ///   - durationSeconds: Seconds of audio, pauses excluded.
    ///   - segments: The final segments (sorted by start before saving).
    ///   - encoding: Nil keeps the draft's audio. Otherwise the audio is encoded first into a hidden
    ///     file in the draft folder, fsync'd, and renamed to `audio.<format>` in the same step that
    ///     writes the metadata; the draft's own file is removed only once the recording is in
    ///     `recordings/`. A crash before that leaves the draft's file, which recovery keeps (and
    ///     removes the encoded one). An encode that fails saves the draft's format.
    /// - Returns: The saved recording, as `list` and `show` will read it.
    ///   - imported: nil for a recording; for an import, the source file's digest (kept instead of
    ///     the saved audio's) and whether a duplicate is refused.
    /// - Throws: `LibraryError.alreadyInLibrary` when `imported` refuses duplicates and a recording
    ///   of that audio is in the library, checked under the write lock (the draft is removed).
    func saveDraft(
        _ draft: RecordingDraft, name: String?, tags: [String], location: RecordingLocation?,
        durationSeconds: Double, segments: [TranscriptSegment], encoding: DraftAudioEncoding? = nil,
        imported: ImportedAudio? = nil, language: String? = nil, vocabulary: [String] = [], notes: [String] = []
    ) throws -> Recording {
        // The name and tag rules (RecordingName, RecordingTags), cleaning rather than refusing: a save never fails over a name.
        // No recording is longer than its audio (`Recording.duration(_:audioSeconds:)`).
        let durationSeconds = Recording.duration(durationSeconds, audioSeconds: folders.statedAudioSeconds(draft.audioFile))
        // The digest of the audio as recorded (the draft's file, before any encoding below), so
        // importing the same audio later is recognised; an import's is its source file's.
        // Outside the write lock: it decodes the file.
        let audioDigest = imported?.digest ?? folders.audioMeasure.contentDigest(draft.audioFile)
        var audio = draft.audio
        var encodedFile: URL?
        if let encoding, StoredAudioFormat(encoding.format) != draft.audio.format {
            // Outside the write lock (it takes seconds); the draft's own lock keeps recovery away.
            let partial = draft.folder.appendingPathComponent(LibraryLayout.encodingAudio(encoding.format.fileExtension))
            unlink(partial.path)
            do {
                try encoding.encoder.encode(draft.audioFile, to: partial, as: encoding.format)
                try DurableFile.syncFile(partial)
                encodedFile = partial
                audio.format = StoredAudioFormat(encoding.format)
            } catch {
                unlink(partial.path)  // the draft's audio is saved as it is
            }
        }
        let recording = Recording(
            id: draft.id,
            name: RecordingName.cleaned(name ?? "", fallback: RecordingName.defaultName(createdAt: draft.createdAt, timeZone: timeZone)),
            createdAt: draft.createdAt, durationSeconds: durationSeconds, language: language ?? Self.language(of: draft),
            tags: RecordingTags.cleaned(tags), audio: audio, location: location, audioDigest: audioDigest, vocabulary: vocabulary,
            notes: notes
        )
        do {
            try keeper.withWriteLock {
                // Under the lock, so two imports of the same file at once save it once.
                if let imported, imported.refusingDuplicates,
                   let existing = try keeper.withIndex({ try $0.recordings(withAudioDigest: imported.digest) }).first {
                    throw LibraryError.alreadyInLibrary(id: existing.id, name: existing.name, audioMissing: folders.isAudioMissing(existing))
                }
                try finishDraft(in: draft.folder, as: recording, segments: segments, encodedAudio: encodedFile)
            }
        } catch {
            if case LibraryError.invalid = error { throw error }  // a taken id: nothing was written
            guard draft.keepIfInterrupted else {
                // An import that cannot be saved leaves nothing: it can be run again.
                try? keeper.withWriteLock(freeingSpace: true) { try removeDraftFolder(draft.folder, id: draft.id) }
                draft.lock?.release()
                throw error
            }
            // The draft stays, with its audio and journal, for `recover`.
            throw LibraryError.saveFailed(id: draft.id, reason: Self.saveFailureReason(error), keptSeconds: durationSeconds,
                                          keptSegments: segments.count, draftPath: draft.folder.path)
        }
        draft.lock?.release()
        return recording
    }

    /// Deletes the draft folder with its audio and journal, and releases its lock.
    func discardDraft(_ draft: RecordingDraft) throws {
        try keeper.withWriteLock(freeingSpace: true) {
            guard FileManager.default.fileExists(atPath: draft.folder.path) else { return }
            try removeDraftFolder(draft.folder, id: draft.id)
        }
        draft.lock?.release()
    }

    /// Removes a draft folder. Renamed first: a crash during the removal leaves a hidden
    /// `.discard-` folder (removed by the next recovery), never a half draft.
    func removeDraftFolder(_ folder: URL, id: String) throws {
        let doomed = folders.drafts.appendingPathComponent(".discard-\(id)-\(getpid())")
        try DurableFile.rename(folder, to: doomed)
        try FileManager.default.removeItem(at: doomed)
    }

    /// Turns every draft left by a crash into a saved recording marked `recovered`.
    ///
    /// A draft whose lock is held belongs to a live recorder and is left alone. For the others:
    /// the WAV header is repaired from the bytes present, the duration is the audio's (else the
    /// last journaled segment's end), the journal's segments are kept (a torn last line is
    /// dropped). A draft with neither audio nor segments is removed; one without a readable
    /// `draft.json` is moved to `trash/`. A draft whose save was interrupted is finished as saved.
    /// A draft that fails to recover is left in place and reported in `recoveryProblems`.
    /// - Returns: The recovered recordings, oldest first. Cheap when `drafts/` is empty.
    @discardableResult
    func recoverDrafts() throws -> [Recording] {
        // A library that cannot be changed keeps its drafts for later (`recover` says why).
        guard writeBlock == nil else { return [] }
        guard !(try FileManager.default.contentsOfDirectory(atPath: folders.drafts.path)).isEmpty else { return [] }
        return try keeper.withWriteLock {
            var recovered: [Recording] = []
            var problems: [String: DraftRecoveryProblem] = [:]
            recoveryNotes = [:]
            // Listed again under the lock: a draft may have been saved or discarded meanwhile.
            for name in try FileManager.default.contentsOfDirectory(atPath: folders.drafts.path).sorted() {
                let folder = folders.drafts.appendingPathComponent(name, isDirectory: true)
                switch Self.draftEntry(name, folder: folder) {
                case .ignored: continue
                case .discardRemains:
                    try? FileManager.default.removeItem(at: folder)
                    continue
                case .draft: break
                }
                do {
                    guard let lock = try FileLock.acquire(folder.appendingPathComponent(LibraryLayout.draftLock)) else {
                        continue  // A live process is recording it.
                    }
                    defer { lock.release() }
                    // What `record` wrote for other programs to follow (`live/<id>/`) ends with the recording.
                    try? FileManager.default.removeItem(at: folders.directory.appendingPathComponent(LibraryLayout.live)
                        .appendingPathComponent(name, isDirectory: true))
                    if let recording = try recoverDraft(in: folder, id: name) {
                        recovered.append(recording)
                    }
                } catch {
                    // One draft that cannot be recovered must not block every command.
                    problems[name] = DraftRecoveryProblem(error: error)
                }
            }
            recoveryProblems = problems
            return recovered
        }
    }

    /// What an entry of `drafts/` is to `recoverDrafts()`.
    enum DraftEntry {
        /// A draft folder: recovered unless a live process holds its lock.
        case draft
        /// The remains of a discard that was interrupted (`.discard-…`): removed.
        case discardRemains
        /// Anything else (a hidden file, a name that is no recording id, a file): left alone.
        case ignored
    }

    static func draftEntry(_ name: String, folder: URL) -> DraftEntry {
        if name.hasPrefix(".discard-") { return .discardRemains }
        var isDirectory: ObjCBool = false
        guard !name.hasPrefix("."), RecordingID.isSafe(name),
              FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { return .ignored }
        return .draft
    }

    /// True when `recoverDrafts()` would have work in the library in `directory`: a draft no live
    /// process holds, or the remains of a discard. Opens no index: the library-only command line
    /// asks this before it opens the library and hands the command to the full program, which can
    /// read audio, when it is true. With only drafts in `drafts/`, each draft's lock is tried and
    /// released at once, under the library's write lock as `recoverDrafts()` does (so a recorder
    /// creating its draft never finds the lock taken). False when there is no drafts folder or
    /// it holds nothing to recover; true when a lock cannot be tried (`recoverDrafts()` says why).
    static func hasDraftsToRecover(in directory: URL) -> Bool {
        let drafts = directory.appendingPathComponent(LibraryLayout.drafts, isDirectory: true)
        func entries() -> [(kind: DraftEntry, folder: URL)] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: drafts.path)) ?? []
            return names.map { name in
                let folder = drafts.appendingPathComponent(name, isDirectory: true)
                return (draftEntry(name, folder: folder), folder)
            }.filter { $0.kind != .ignored }
        }
        guard !entries().isEmpty else { return false }  // the usual case: nothing read but the folder
        guard let writeLock = try? FileLock.wait(directory.appendingPathComponent(LibraryLayout.writeLock)) else { return true }
        defer { writeLock.release() }
        for (kind, folder) in entries() {
            guard kind == .draft else { return true }
            do {
                guard let lock = try FileLock.acquire(folder.appendingPathComponent(LibraryLayout.draftLock)) else {
                    continue  // a live process is recording it
                }
                lock.release()
                return true
            } catch {
                return true  // recoverDrafts() reports why the lock cannot be taken
            }
        }
        return false
    }

    /// Recovers one unlocked draft folder; nil when it held nothing worth keeping.
    private func recoverDraft(in folder: URL, id: String) throws -> Recording? {
        // Marked from its first file as not to be kept (`record --discard`, an import).
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(LibraryLayout.discardMarker).path) {
            try removeDraftFolder(folder, id: id)
            return nil
        }
        // A save that wrote its metadata but crashed before the move: finish it.
        // The id is always the folder's name (checked safe by the caller), never one read from a
        // file inside the draft, which could name a path outside the library.
        if var saved = try? folders.readMetadata(in: folder) {
            saved.id = id
            try finishDraft(in: folder, as: saved, segments: try folders.readTranscript(in: folder))
            return saved
        }
        let manifestFile = folder.appendingPathComponent(LibraryLayout.draftManifest)
        let manifest = (try? Data(contentsOf: manifestFile)).flatMap { try? JSONDecoder.liveTranscriber.decode(DraftManifest.self, from: $0) }
        let segments = Self.readJournal(folder.appendingPathComponent(LibraryLayout.journal))
        // The audio file is the truth about the audio: the one draft.json names, else whichever
        // audio.<wav|flac|opus|m4a> is there; its rate and channels are read from the file itself.
        // An M4A recording's draft names WAV: an audio.m4a beside it is an encode the crash cut
        // short of the save, and `finishDraft` removes it.
        let named = manifest?.audio.format ?? "wav"
        let formats = [named] + RecordingAudioFormat.allCases.map(StoredAudioFormat.init).filter { $0 != named }
        let found = formats.first { FileManager.default.fileExists(atPath: folders.audioFile(in: folder, format: $0).path) }
        var audio = manifest?.audio ?? AudioDescription(format: found ?? "wav", sampleRate: 16_000, channels: 1)
        var measured: AudioFileMeasurement?
        if let format = found {
            audio.format = format
            measured = folders.audioMeasure.measure(folders.audioFile(in: folder, format: format))
            if let measured {
                audio.sampleRate = measured.sampleRate
                audio.channels = measured.channels
            }
        }
        // Nothing recorded (killed before 0.1 s of audio, the shortest a recording keeps): nothing to keep.
        guard measured.map({ Recording.holdsAudio(frames: $0.frames, sampleRate: $0.sampleRate) }) == true || !segments.isEmpty else {
            let known = [LibraryLayout.draftLock, LibraryLayout.draftManifest, LibraryLayout.journal] + formats.map(LibraryLayout.audio)
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            if (found != nil && measured == nil) || !contents.allSatisfy({ known.contains($0) || $0.hasPrefix(".") }) {
                // Audio that cannot be read, or files we do not know: set aside, never deleted.
                try DurableFile.rename(folder, to: folders.trash.appendingPathComponent("draft-\(id)-\(getpid())"))
                return nil
            }
            try removeDraftFolder(folder, id: id)
            return nil
        }
        // The audio that is really there; without readable audio, the last final segment's end.
        let duration = measured?.seconds ?? segments.map(\.endSeconds).max() ?? 0
        let createdAt = manifest?.createdAt ?? Self.creationDate(ofDraft: id, folder: folder)
        if manifest == nil {
            recoveryNotes[id] = .damagedManifest(audioSeconds: duration, segments: segments.count)
        }
        let recording = Recording(
            id: id,
            // draft.json is read back from disk: its name and tags go through the same cleaning as a save's.
            name: RecordingName.cleaned(manifest?.name ?? "", fallback: RecordingName.defaultName(createdAt: createdAt, timeZone: timeZone)),
            createdAt: createdAt,
            durationSeconds: duration,
            language: manifest?.language ?? Self.unknownLanguage, tags: RecordingTags.cleaned(manifest?.tags ?? []), audio: audio, recovered: true,
            audioDigest: found.flatMap { folders.audioMeasure.contentDigest(folders.audioFile(in: folder, format: $0)) },
            vocabulary: manifest?.vocabulary ?? []
        )
        try finishDraft(in: folder, as: recording, segments: segments)
        return recording
    }

    /// The language of a recovered draft whose `draft.json` was lost: BCP 47 "und" (undetermined).
    static let unknownLanguage = "und"

    /// When a draft without a readable `draft.json` was started: from its id (`yyyyMMdd-HHmmss-…`,
    /// UTC), else the folder's modification time.
    static func creationDate(ofDraft id: String, folder: URL) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        if id.count >= 15, let date = formatter.date(from: String(id.prefix(15))) { return date }
        let modified = (try? FileManager.default.attributesOfItem(atPath: folder.path)[.modificationDate]) as? Date
        return Date(timeIntervalSince1970: (modified ?? Date()).timeIntervalSince1970.rounded(.down))
    }

    /// Writes transcript and metadata into the draft folder, moves it into `recordings/` and
    /// indexes it, in step (`changeInStep`: a failure leaves the draft where it was and the index
    /// unchanged), then removes the draft-only files: the journal and manifest, and audio files
    /// other than the recording's (the WAV an M4A was encoded from, an unfinished encode).
    /// `encodedAudio`, a complete and durable file, becomes `audio.<format>` before the metadata
    /// names it. The caller holds the write lock.
    private func finishDraft(in draftFolder: URL, as recording: Recording, segments: [TranscriptSegment], encodedAudio: URL? = nil) throws {
        let sorted = segments.sorted { $0.startSeconds < $1.startSeconds }
        let destination = folders.folder(of: recording.id)
        guard !FileManager.default.fileExists(atPath: destination.path) else {
            throw LibraryError.invalid("a recording with id '\(recording.id)' already exists.")
        }
        try keeper.changeInStep(index: { try $0.upsert(recording, segments: sorted, inTransaction: true) }, files: {
            try DurableFile.write(try JSONEncoder.liveTranscriber.encode(sorted), to: draftFolder.appendingPathComponent(LibraryLayout.transcript))
            if let encodedAudio {
                try DurableFile.rename(encodedAudio, to: folders.audioFile(in: draftFolder, format: recording.audio.format))
            }
            try folders.writeMetadata(recording, in: draftFolder)
            // The folder enters `recordings/` (and iCloud Drive, when the library is there) whole.
            try folders.files.coordinateWriting(draftFolder, .moving(to: destination)) { try DurableFile.rename(draftFolder, to: destination) }
        }, undo: {
            try? DurableFile.rename(destination, to: draftFolder)
        })
        let otherAudio = RecordingAudioFormat.allCases.map(StoredAudioFormat.init).filter { $0 != recording.audio.format }
        let leftovers = [LibraryLayout.draftManifest, LibraryLayout.journal, LibraryLayout.draftLock, LibraryLayout.discardMarker]
            + otherAudio.map(LibraryLayout.audio) + RecordingAudioFormat.allCases.map { LibraryLayout.encodingAudio($0.fileExtension) }
        try? folders.files.coordinateWriting(destination, .replacing) {
            for leftover in leftovers {
                unlink(destination.appendingPathComponent(leftover).path)
            }
        }
        try? DurableFile.syncFolder(destination)
    }

    /// Why a save failed, in words: a full disk is named as such.
    static func saveFailureReason(_ error: any Error) -> String {
        if IndexKeeper.isOutOfSpace(error) { return "the disk holding the library is full" }
        if let error = error as? CocoaError, (error.underlying as? POSIXError)?.code == .ENOSPC {
            return "the disk holding the library is full"
        }
        if case LibraryError.busy = error { return "the library's index was busy (another process held it for more than 5 seconds)" }
        return String(describing: error)
    }

    /// The segments of a journal: one JSON object per line; unreadable lines (a line torn by the
    /// crash) are skipped. Sorted by start time.
    static func readJournal(_ file: URL) -> [TranscriptSegment] {
        guard let data = try? Data(contentsOf: file) else { return [] }
        return readJournal(data: data)
    }

    /// The segments of a journal's bytes (`readJournal(_:)`).
    static func readJournal(data: Data) -> [TranscriptSegment] {
        let decoder = JSONDecoder.liveTranscriber
        return data.split(separator: 0x0A)
            .compactMap { try? decoder.decode(TranscriptSegment.self, from: Data($0)) }
            .sorted { $0.startSeconds < $1.startSeconds }
    }
}
