import Foundation
import Glibc
import LiveTranscriberCore

/// Drafts: in-progress recordings, their save, discard and crash recovery.
extension LibraryStore {
    /// Creates `drafts/<id>/` with `draft.json` and a held `lock`; the recorder then writes
    /// `audioFile` and journals final segments.
    ///
    /// - Parameters:
    ///   - id: From `newRecordingID(date:)`; must not name an existing draft or recording.
    ///   - createdAt: When recording started (kept to the second, as JSON stores it).
    ///   - name, tags: Given up front (`record --name --tags`), kept if the draft is recovered.
    /// - Throws: `LibraryError.invalid` for a bad or taken id; file system errors.
    public func createDraft(
        id: String, createdAt: Date, language: String, audio: AudioDescription,
        name: String? = nil, tags: [String] = []
    ) throws -> RecordingDraft {
        guard Self.isSafeID(id) else { throw LibraryError.invalid("'\(id)' cannot be a recording id.") }
        guard ["wav", "flac", "opus"].contains(audio.format) else {
            throw LibraryError.invalid("unknown audio format '\(audio.format)'; use wav, flac or opus.")
        }
        // Under the write lock, so a concurrent recoverDrafts never sees the folder before its lock is held.
        return try withWriteLock {
            guard !FileManager.default.fileExists(atPath: folder(of: id).path) else {
                throw LibraryError.invalid("a recording with id '\(id)' already exists.")
            }
            let draftFolder = draftsFolder.appendingPathComponent(id, isDirectory: true)
            guard mkdir(draftFolder.path, 0o755) == 0 else {
                if errno == EEXIST { throw LibraryError.invalid("a draft with id '\(id)' already exists.") }
                throw FileSystemError(call: "mkdir", path: draftFolder.path, errno: errno)
            }
            guard let lock = try FileLock.acquire(draftFolder.appendingPathComponent(LibraryLayout.draftLock)) else {
                throw LibraryError.invalid("the draft '\(id)' is being recorded by another process.")
            }
            let createdAt = Date(timeIntervalSince1970: createdAt.timeIntervalSince1970.rounded(.down))
            let draft = RecordingDraft(id: id, folder: draftFolder, createdAt: createdAt, language: language, audio: audio, lock: lock)
            let manifest = DraftManifest(
                id: id, createdAt: createdAt, language: language, audio: audio,
                name: name, tags: tags.isEmpty ? nil : Self.normalizedTags(tags)
            )
            try DurableFile.write(try JSONEncoder.liveTranscriber.encode(manifest), to: draft.manifestFile)
            try DurableFile.syncFolder(draftsFolder)
            return draft
        }
    }

    /// Appends one final segment to the draft's `journal.jsonl` (one JSON object per line) and
    /// fsyncs it, so a crash loses no final segment.
    public func appendToJournal(_ segment: TranscriptSegment, draft: RecordingDraft) throws {
        try DurableFile.append(Data((try JSONText.line(segment) + "\n").utf8), to: draft.journalFile)
    }

    /// Saves the draft as a recording: writes its transcript and metadata, moves the folder into
    /// `recordings/` with one rename, indexes it, and releases the draft's lock.
    ///
    /// - Parameters:
    ///   - name: Nil or blank for the default, "Recording 2026-11-29 20:41" (in `timeZone`).
    ///   - durationSeconds: Seconds of audio, pauses excluded.
    ///   - segments: The final segments (sorted by start before saving).
    /// - Returns: The saved recording, as `list` and `show` will read it.
    public func saveDraft(
        _ draft: RecordingDraft, name: String?, tags: [String], location: RecordingLocation?,
        durationSeconds: Double, segments: [TranscriptSegment]
    ) throws -> Recording {
        // The name and tag rules (RecordingName, RecordingTags), cleaning rather than refusing: a save never fails over a name.
        let recording = Recording(
            id: draft.id,
            name: RecordingName.cleaned(name ?? "", fallback: RecordingName.defaultName(createdAt: draft.createdAt, timeZone: timeZone)),
            createdAt: draft.createdAt, durationSeconds: durationSeconds, language: draft.language,
            tags: Self.normalizedTags(tags), audio: draft.audio, location: location
        )
        try withWriteLock {
            try finishDraft(in: draft.folder, as: recording, segments: segments)
        }
        draft.lock?.release()
        return recording
    }

    /// Deletes the draft folder with its audio and journal, and releases its lock.
    public func discardDraft(_ draft: RecordingDraft) throws {
        try withWriteLock {
            guard FileManager.default.fileExists(atPath: draft.folder.path) else { return }
            // Rename first: a crash during the removal leaves a hidden folder, never a half draft.
            let doomed = draftsFolder.appendingPathComponent(".discard-\(draft.id)-\(getpid())")
            try DurableFile.rename(draft.folder, to: doomed)
            try FileManager.default.removeItem(at: doomed)
        }
        draft.lock?.release()
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
    public func recoverDrafts() throws -> [Recording] {
        guard !(try FileManager.default.contentsOfDirectory(atPath: draftsFolder.path)).isEmpty else { return [] }
        return try withWriteLock {
            var recovered: [Recording] = []
            var problems: [String: String] = [:]
            // Listed again under the lock: a draft may have been saved or discarded meanwhile.
            for name in try FileManager.default.contentsOfDirectory(atPath: draftsFolder.path).sorted() {
                let folder = draftsFolder.appendingPathComponent(name, isDirectory: true)
                if name.hasPrefix(".discard-") {
                    try? FileManager.default.removeItem(at: folder)
                    continue
                }
                var isDirectory: ObjCBool = false
                guard !name.hasPrefix("."), Self.isSafeID(name),
                      FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
                else { continue }
                do {
                    guard let lock = try FileLock.acquire(folder.appendingPathComponent(LibraryLayout.draftLock)) else {
                        continue  // A live process is recording it.
                    }
                    defer { lock.release() }
                    if let recording = try recoverDraft(in: folder, id: name) {
                        recovered.append(recording)
                    }
                } catch {
                    // One draft that cannot be recovered must not block every command.
                    problems[name] = String(describing: error)
                }
            }
            recoveryProblems = problems
            return recovered
        }
    }

    /// Recovers one unlocked draft folder; nil when it held nothing worth keeping.
    private func recoverDraft(in folder: URL, id: String) throws -> Recording? {
        // A save that wrote its metadata but crashed before the move: finish it.
        // The id is always the folder's name (checked safe by the caller), never one read from a
        // file inside the draft, which could name a path outside the library.
        if var saved = try? readMetadata(in: folder) {
            saved.id = id
            try finishDraft(in: folder, as: saved, segments: try readTranscript(in: folder))
            return saved
        }
        let manifestFile = folder.appendingPathComponent(LibraryLayout.draftManifest)
        guard let data = try? Data(contentsOf: manifestFile),
              let manifest = try? JSONDecoder.liveTranscriber.decode(DraftManifest.self, from: data)
        else {
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            if contents.allSatisfy({ $0 == LibraryLayout.draftLock || $0.hasPrefix(".") }) {
                try FileManager.default.removeItem(at: folder)  // Crashed inside createDraft.
            } else {
                try DurableFile.rename(folder, to: trashFolder.appendingPathComponent("draft-\(id)-\(getpid())"))
            }
            return nil
        }
        let segments = Self.readJournal(folder.appendingPathComponent(LibraryLayout.journal))
        // The audio file is the truth about the audio: the one draft.json names, else whichever
        // audio.<wav|flac|opus> is there; its rate and channels are read from the file itself.
        var audio = manifest.audio
        let formats = [audio.format] + ["wav", "flac", "opus"].filter { $0 != audio.format }
        let found = formats.first { FileManager.default.fileExists(atPath: audioFile(in: folder, format: $0).path) }
        guard found != nil || !segments.isEmpty else {
            try FileManager.default.removeItem(at: folder)
            return nil
        }
        var duration: Double?
        if let format = found {
            let audioFile = audioFile(in: folder, format: format)
            audio.format = format
            if format == "wav" {
                duration = (try? WAVFileRepair.repair(audioFile))?.layout.durationSeconds
            }
            if let properties = WAVFileRepair.properties(ofAudioFile: audioFile) {
                audio.sampleRate = properties.sampleRate
                audio.channels = properties.channels
                duration = duration ?? properties.seconds
            }
        }
        let recording = Recording(
            id: id,
            name: manifest.name ?? RecordingName.defaultName(createdAt: manifest.createdAt, timeZone: timeZone),
            createdAt: manifest.createdAt,
            durationSeconds: duration ?? segments.map(\.endSeconds).max() ?? 0,
            language: manifest.language, tags: manifest.tags ?? [], audio: audio, recovered: true
        )
        try finishDraft(in: folder, as: recording, segments: segments)
        return recording
    }

    /// Writes transcript and metadata into the draft folder, moves it into `recordings/`, removes
    /// the draft-only files and indexes it. The caller holds the write lock.
    private func finishDraft(in draftFolder: URL, as recording: Recording, segments: [TranscriptSegment]) throws {
        let sorted = segments.sorted { $0.startSeconds < $1.startSeconds }
        let destination = folder(of: recording.id)
        guard !FileManager.default.fileExists(atPath: destination.path) else {
            throw LibraryError.invalid("a recording with id '\(recording.id)' already exists.")
        }
        try DurableFile.write(try JSONEncoder.liveTranscriber.encode(sorted), to: draftFolder.appendingPathComponent(LibraryLayout.transcript))
        try writeMetadata(recording, in: draftFolder)
        try DurableFile.rename(draftFolder, to: destination)
        for leftover in [LibraryLayout.draftManifest, LibraryLayout.journal, LibraryLayout.draftLock] {
            unlink(destination.appendingPathComponent(leftover).path)
        }
        try DurableFile.syncFolder(destination)
        try withIndex { try $0.upsert(recording, segments: sorted) }
    }

    /// The segments of a journal: one JSON object per line; unreadable lines (a line torn by the
    /// crash) are skipped. Sorted by start time.
    static func readJournal(_ file: URL) -> [TranscriptSegment] {
        guard let data = try? Data(contentsOf: file) else { return [] }
        let decoder = JSONDecoder.liveTranscriber
        return data.split(separator: 0x0A)
            .compactMap { try? decoder.decode(TranscriptSegment.self, from: Data($0)) }
            .sorted { $0.startSeconds < $1.startSeconds }
    }
}

extension LibraryStore: RecordingDraftStore {
    public func newRecordingID(date: Date) -> String { Self.newRecordingID(date: date) }
}
